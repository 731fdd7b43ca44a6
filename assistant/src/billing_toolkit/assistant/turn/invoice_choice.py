"""Which of the subscriber's own invoices a period or a number's last digits names.

Pure rules over the invoices the `invoices` capability listed for the subscriber (never a
look-up in the billing system by a partial key): the turn calls them and then shows the one
invoice, asks which of several, or says none matches and lists what there is.

- A period is the month the invoice's billing period *starts* in (an invoice for 6 July to
  5 August is "la de julio"). A month without a year is its most recent occurrence on the
  account; a relative month ("el mes pasado") counts back from the billing system's own
  date (the balance's `as_of`), not the server's clock, so the subscriber and the record
  agree on what "last month" is.
- A void invoice is left out when another invoice covers the same period (the reissue is
  the one they mean); it is kept when it is all there is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any, TypeVar

from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.months import ENGLISH_NAMES, SPANISH_NAMES
from billing_toolkit.assistant.understanding.partial_identifiers import ends_with
from billing_toolkit.assistant.understanding.periods import PeriodAsked

Invoice = Mapping[str, Any]
Record = TypeVar("Record", bound=Mapping[str, Any])


def _start(invoice: Invoice) -> date:
    return date.fromisoformat(str(invoice["billing_period"]["start"])[:10])


def months_before(reference: date, months_back: int) -> tuple[int, int]:
    """(year, month) `months_back` calendar months before `reference`'s month."""
    index = reference.year * 12 + reference.month - 1 - months_back
    return index // 12, index % 12 + 1


def _without_void(found: list[Invoice]) -> list[Invoice]:
    billed = [i for i in found if i.get("status") != "void"]
    return billed or found


def invoices_of_period(
    invoices: Sequence[Invoice], period: PeriodAsked, today: date | None
) -> list[Invoice]:
    """The invoices whose billing period starts in the month asked for (newest first)."""
    return _without_void(in_month_asked(invoices, period, today, _start))


def in_month_asked(
    records: Sequence[Record],
    period: PeriodAsked,
    today: date | None,
    day_of: Callable[[Record], date],
) -> list[Record]:
    """The records whose day (`day_of`: an invoice's period start, a payment's receipt) is in
    the month asked for; a month without a year is its latest occurrence among them.
    `today` is the billing system's date; a relative period with no `today` matches
    nothing (bias: no guess at which month "last month" is)."""
    if period.months_back is not None:
        if today is None:
            return []
        wanted = months_before(today, period.months_back)
        return [r for r in records if (day_of(r).year, day_of(r).month) == wanted]
    in_month = [r for r in records if day_of(r).month == period.month]
    year = period.year or max((day_of(r).year for r in in_month), default=None)
    return [r for r in in_month if day_of(r).year == year]


def invoices_ending_in(invoices: Sequence[Invoice], suffix: str) -> list[Invoice]:
    """The invoices whose number's digits end with `suffix`."""
    return [i for i in invoices if ends_with(str(i["invoice_number"]), suffix)]


def month_name(year: int, month: int, language: Language) -> str:
    """ "julio de 2026" / "July 2026": a month, never read as a date by the verifier."""
    if language is Language.ENGLISH:
        return f"{ENGLISH_NAMES[month - 1]} {year}"
    return f"{SPANISH_NAMES[month - 1]} de {year}"


def periods_on_record(invoices: Sequence[Invoice], language: Language) -> list[str]:
    """The months the subscriber has invoices for, oldest first, each once."""
    return months_on_record(invoices, _start, language)


def months_on_record(
    records: Sequence[Record], day_of: Callable[[Record], date], language: Language
) -> list[str]:
    """The months of the records' days (`day_of`), oldest first, each once, in words."""
    months = sorted({(day_of(r).year, day_of(r).month) for r in records})
    return [month_name(year, month, language) for year, month in months]


def asked_month(period: PeriodAsked, today: date | None, language: Language) -> str:
    """The period asked for, in words, for a "none found" reply."""
    if period.months_back is not None and today is not None:
        return month_name(*months_before(today, period.months_back), language)
    if period.month is not None:
        names = ENGLISH_NAMES if language is Language.ENGLISH else SPANISH_NAMES
        name = names[period.month - 1]
        return month_name(period.year, period.month, language) if period.year else name
    return period.literal
