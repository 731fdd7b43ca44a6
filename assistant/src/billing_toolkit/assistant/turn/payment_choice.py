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
from billing_toolkit.assistant.turn.invoice_choice import month_name, months_before
from billing_toolkit.assistant.understanding.periods import PeriodAsked

Payment = Mapping[str, Any]


def _received(payment: Payment) -> date:
    return date.fromisoformat(str(payment["received_at"])[:10])


def payments_of_period(
    payments: Sequence[Payment], period: PeriodAsked, today: date | None
) -> list[Payment]:
    """The payments received in the month asked for (newest first). `today` is the billing
    system's date; a relative month without it matches nothing (no guess)."""
    if period.months_back is not None:
        if today is None:
            return []
        wanted = months_before(today, period.months_back)
        return [p for p in payments if (_received(p).year, _received(p).month) == wanted]
    in_month = [p for p in payments if _received(p).month == period.month]
    if period.year is not None:
        return [p for p in in_month if _received(p).year == period.year]
    latest_year = max((_received(p).year for p in in_month), default=None)
    return [p for p in in_month if _received(p).year == latest_year]


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


def months_paid(payments: Sequence[Payment], language: Language) -> list[str]:
    """The months the subscriber's listed payments were received in, oldest first, once each."""
    months = sorted({(_received(p).year, _received(p).month) for p in payments})
    return [month_name(year, month, language) for year, month in months]
