"""Which of the subscriber's own payments a month or "the one before" names.

Pure rules over the payments the `payments` capability listed for the subscriber (newest
first): the turn shows what they name, or says none matches and the months they paid in.

- A month is the month a payment was *received* in ("¿cuánto pagué en agosto?"); without a
  year, its most recent occurrence on the account; a relative month ("el mes pasado") counts
  back from the billing system's date, as an invoice's does (`invoice_choice`).
- "The one before" ("¿y el anterior?", "el pago anterior") is the payment received before
  the one the last reply showed, or before the last payment when none was shown.

Bias: never the nearest — a month with no payment is said to have none, not answered with
another month's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.turn.invoice_choice import in_month_asked, months_on_record
from billing_toolkit.assistant.understanding.periods import PeriodAsked

Payment = Mapping[str, Any]


def _received(payment: Payment) -> date:
    return date.fromisoformat(str(payment["received_at"])[:10])


def payments_of_period(
    payments: Sequence[Payment], period: PeriodAsked, today: date | None
) -> list[Payment]:
    """The payments received in the month asked for (newest first); a relative month without
    the billing system's `today` matches nothing (no guess)."""
    return in_month_asked(payments, period, today, _received)


def payment_before(payments: Sequence[Payment], shown: str | None) -> list[Payment]:
    """The payment listed right after `shown` (the one before it), or after the newest when
    nothing was shown; [] when `shown` is not among them or is the oldest listed."""
    ids = [str(p["payment_id"]) for p in payments]
    if shown is None:
        return list(payments[1:2])
    if shown not in ids:
        return []
    after = ids.index(shown) + 1
    return list(payments[after : after + 1])


def payments_applied_to(payments: Sequence[Payment], invoice: str) -> list[Payment]:
    """The payments (newest first, as listed) that applied something to `invoice`."""
    return [
        p
        for p in payments
        if any(str(a.get("invoice_number")) == invoice for a in p.get("allocations") or ())
    ]


def months_paid(payments: Sequence[Payment], language: Language) -> list[str]:
    """The months the subscriber's listed payments were received in, oldest first, once each."""
    return months_on_record(payments, _received, language)
