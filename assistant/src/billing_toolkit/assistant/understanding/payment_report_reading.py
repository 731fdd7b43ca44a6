"""Reading a payment report out of a subscriber's message: "hice un pago móvil, referencia
0045127, Bs. 1.310,40, Banesco, hoy" → method, reference, amount and currency, bank, date.

A pure function of the message, the day it is read on and the field the last turn asked
for. Each field is read only when the message says it in so many words: a reference after
its keyword ("ref", "referencia", "nro", "#", "reference", "confirmation", "code",
"confirmación", "número de operación"), an amount with its currency beside it or glued to it
("Bs. 1.310,40", "1310,40 bolívares", "1310.40 bsf", "$28", "USD 28", "1310bs", "Bs.1310",
"usd25", "1310 bolos") or written with cents, a bank of the table
(`knowledge/banks.py`), "hoy" / "ayer" / "el lunes" (the last Monday) / a date
(`text/dates.py`, `text/relative_dates.py`). Bare digits, or a code of letters and digits,
count only as the answer to the question just asked ("¿cuál es la referencia?" →
"0045127", "7HG52K"). Two different references are two payments: flagged, never one of
them taken for the report. Nothing is judged here: a
Zelle in bolívares is read as written and the billing API decides (it rejects it).

Bias: a field not clearly said is left empty, and the turn asks for it — a report filed
with a guessed reference or amount would be checked against the bank and rejected, or
worse, match someone else's payment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal

from billing_toolkit.assistant.knowledge.banks import BankMention, bank_named, find_bank
from billing_toolkit.assistant.text.amounts import amount_value, find_amounts
from billing_toolkit.assistant.text.currencies import currency_before, unit_after, unit_of
from billing_toolkit.assistant.text.dates import DateMention, DateStyle, find_dates
from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.text.relative_dates import find_relative_dates, relative_days

METHODS = ("pago_movil", "bank_transfer", "zelle")
CURRENCIES = ("USD", "VES")
METHOD_CURRENCY = {"pago_movil": "VES", "bank_transfer": "VES", "zelle": "USD"}
"""The one currency each method is paid in: the currency of an amount written without one."""

FIELDS = ("method", "amount", "reference", "bank", "payment_date")
"""The fields a report is asked for, in the order they are asked."""

_METHOD_WORDS = (
    ("zelle", re.compile(r"\bzelle\b")),
    (
        "pago_movil",
        re.compile(
            r"\b(?:pagos? ?movil(?:es)?|pagomovil|mobile payment|p\. ?movil)\b"
            r"|(?<!\d)(?<!\d )\bpm\b(?! ?\d{1,2}(?!\d))"  # "PM Banesco", never "3 pm"
        ),
    ),
    (
        "bank_transfer",
        re.compile(
            r"\b(?:transferencias?|transferi|transfiero|transferido|bank transfer|transfer|"
            r"transferred|wire)\b"
        ),
    ),
)
_REFERENCE = re.compile(
    r"(?:\b(?:numero de referencia|nro\.? de referencia|n[uú]mero de ref|referencia|ref|nro|"
    r"(?:codigo|numero|nro\.?) de (?:confirmacion|operacion|aprobacion)|confirmacion|"
    r"comprobante|operacion|codigo|code|reference(?: number)?|confirmation(?: number| code)?|conf)"
    r"(?:\b|(?=\d))\.?|#)"
    r"\s*(?:(?:es|is|del pago|de la transferencia|del zelle|number|correcta|correcto|buena|"
    r"real|nueva|new|right|correct|de pago)\s*)*[:=#]?\s*"
    r"(?P<ref>(?=[0-9a-z]*\d)[0-9a-z]{4,32})\b"
)
"""A reference after its word, past the words of a correction ("la referencia correcta es
0045999"), Zelle's confirmation code and a bank's "número de operación" included."""
_BARE_REFERENCE = re.compile(
    r"(?<![\w.,$])(?P<ref>\d{4,32}(?![a-z])|(?=[a-z]*\d)(?=\d*[a-z])[0-9a-z]{4,32})"
    r"(?![\w.,$]*\d)"
)
"""Digits, or a code of letters and digits ("7HG52K", a Zelle confirmation), said alone as
the answer to "¿cuál es la referencia?" — never an amount glued to its currency ("1310bs",
"usd25", "1310 bolos": `_reference` leaves out the figures said in a currency)."""
_REFERENCE_GROUP = re.compile(
    r"-(?P<dashed>\d{2,})(?!\d|[.,]\d|[/:])"
    r"| (?P<spaced>\d{2,8})(?!\d|[.,]\d|[/:]| ?(?:bs|bolivar|bolo|usd|dolar|dollar|\$|%))"
)
"""The next group of a reference written in parts, as subscribers copy it off a receipt
("0045-127", "0045 127", "1234 5678 9012"): after a dash any digits; after a space digits
that are no figure, date or hour of their own ("ref 0045 1310 bs" is an amount beside it)."""
_WHOLE = r"\d{1,3}(?:\.\d{3})+(?!,\d)|\d{1,3}(?:,\d{3})+(?!\.\d)|\d+"
"""A whole figure: plain, or grouped by threes in either convention ("1.310", "1,310") — three
digits after the mark are a thousands group in both, never bolívar cents."""
_WHOLE_AMOUNT = re.compile(rf"(?<![\d,])(?<!\d\.)(?P<n>{_WHOLE})(?!\d|[.,]\d)")
_OLD_BOLIVAR = re.compile(r"(?<![a-z])bs\.? ?f(?![a-z])\.?|\bbolivar(?:es)? fuertes?\b")
""""Bs.F" / "bsf" / "bolívares fuertes", the retired bolívar fuerte many still write for the
bolívar they pay in, glued to the figure or not ("1310bsf"): read as the bolívar (`VES`).
A reply never writes it — the verifier reads Bs.F as its own unit (`text/currencies.py`),
which no evidence has."""
_WEEKDAYS = ("lunes", "martes", "miercoles", "jueves", "viernes", "sabado", "domingo")
_WEEKDAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
AHEAD_AT_MOST = timedelta(days=31)
"""How far ahead a day written without a year may be and still be this year's."""
_TODAY = re.compile(r"\b(?:hoy|today|esta manana|this morning|ahorita|ahora mismo|hace rato)\b")


_PAID = re.compile(
    r"\b(?:hice|hicimos|pague|pagamos|envie|enviamos|mande|transferi|transferimos|deposite|"
    r"realice|cancele|sent|paid|made|transferred|wired)\b"
)
"""A payment said as done ("pagué", "le hice", "I sent"); "cancelé" is paying in Venezuela."""


def says_paid(message: str) -> bool:
    """Whether `message` says a payment was made, in the past tense."""
    return bool(_PAID.search(fold(message)))


@dataclass(frozen=True, slots=True)
class ReportReading:
    """What one message says of a payment; every field None when it does not say it."""

    method: str | None = None
    amount: Decimal | None = None
    currency: str | None = None
    reference: str | None = None
    bank: str | None = None
    payment_date: date | None = None
    several_references: bool = False
    """Two different references said ("ref 1111 y ref 2222"): two payments, not one report."""
    day_in_doubt: bool = False
    """A numeric date said that may be two days ("11/05" in English, `two_readings`)."""


Span = tuple[int, int]


def _free(spans: list[Span], start: int, end: int) -> bool:
    return all(end <= s or start >= e for s, e in spans)


def _method(text: str) -> str | None:
    return next((method for method, words in _METHOD_WORDS if words.search(text)), None)


def _reference(text: str, asked: str | None, taken: list[Span]) -> str | None:
    # A bank's code said after "código" is the bank ("código 0134"), not a reference.
    matches = [
        m for m in _REFERENCE.finditer(text) if not (asked == "bank" and bank_named(m["ref"]))
    ]
    if not matches and asked == "reference":
        figures = _in_a_currency(text)
        matches = [
            m
            for m in _BARE_REFERENCE.finditer(text)
            if _free([*taken, *figures], m.start(), m.end())
        ]
    if not matches:
        return None
    spans = [_grouped(text, m) for m in matches]
    taken.extend(span for span, _ in spans)
    return spans[0][1]


def _grouped(text: str, match: re.Match[str]) -> tuple[Span, str]:
    """The reference `match` starts, with the groups it goes on in (`_REFERENCE_GROUP`):
    its span and its characters, joined and upper-cased. Bias: a group joins only a digit
    reference whose parts so far are short (at most four digits each — how a receipt's
    number is split for reading), so "ref 0045127 1310" never takes the figure after it."""
    start, end = match.span("ref")
    reference = match["ref"]
    while reference.isdigit() and (group := _REFERENCE_GROUP.match(text, end)):
        part = group["dashed"] or group["spaced"]
        last = re.search(r"\d+$", text[start:end])
        if len(reference) + len(part) > 32 or (
            group["spaced"] and last is not None and len(last[0]) > 4
        ):
            break
        reference, end = reference + part, group.end()
    return (start, end), reference.upper()


def _references(text: str) -> set[str]:
    return {_grouped(text, m)[1] for m in _REFERENCE.finditer(text)}


def last_such_day(month_day: tuple[int, int], today: date) -> date | None:
    """A day written without a year ("el 7 de noviembre"): the last one not after `today`
    (a payment, a rate asked about, is in the past) — unless this year's is at most
    `AHEAD_AT_MOST` ahead: "20/11" written on 10 November is that day, which the billing
    API refuses as a payment date and the subscriber corrects, not a payment a year old
    filed in its place. None when no year has it."""
    month, day = month_day
    for year in (today.year + 1, today.year, today.year - 1):
        try:
            written = date(year, month, day)
        except ValueError:
            continue
        if written <= today + AHEAD_AT_MOST:
            return written
    return None


def _last_weekday(name: str, today: date) -> date:
    """ "El lunes", "last monday", said of a payment or a rate: the last Monday before
    `today` (today itself is "hoy")."""
    weekday = _WEEKDAYS.index(name) if name in _WEEKDAYS else _WEEKDAYS_EN.index(name)
    return today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)


def _near(mention: DateMention, today: date) -> DateMention:
    """A date whose year is far from `today` is a day followed by a figure ("el 5 de
    noviembre, 1310,40 bs" is not the year 1310): the day without a year, the figure freed."""
    value = mention.value
    if value is None or abs(value.year - today.year) <= 1:
        return mention
    year = re.search(r"[\s,]*\d+\W*$", mention.literal)
    if year is None:
        return mention
    end = mention.start + year.start()
    literal = mention.literal[: year.start()]
    return replace(
        mention, end=end, literal=literal, value=None, month_day=(value.month, value.day)
    )


def _payment_date(text: str, today: date, day_first: bool | None, taken: list[Span]) -> date | None:
    for found in find_dates(text, day_first=day_first):
        mention = _near(found, today)
        taken.append((mention.start, mention.end))
        if mention.value is not None:
            return mention.value
        if mention.month_day is not None and (day := last_such_day(mention.month_day, today)):
            return day
    for start, end, literal in find_relative_dates(text):
        days = relative_days(literal)
        name = re.sub(r"^last\s+", "", fold(literal))
        weekday = name in (*_WEEKDAYS, *_WEEKDAYS_EN)
        if weekday or (days is not None and days <= 0):
            taken.append((start, end))
            return _last_weekday(name, today) if weekday else today + timedelta(days=days or 0)
    return today if _TODAY.search(text) else None


_DAY_OF_MONTH = re.compile(
    r"\b(?:el|del|on the|for the|of the|the)(?: dia)? (?P<day>3[01]|[12]\d|[1-9])(?:st|nd|rd|th)?"
    r"(?![\w/.,:-]| ?(?:%|\$|(?:de|of|del|am|pm|h|bs|usd|dias|days)\b))"
)
"""A day of the month alone ("¿a cómo estuvo el dólar el 6?", "the rate on the 6th"): never
the start of a fuller date, an hour, a figure or a count."""


def _day_of_month(text: str, today: date) -> date | None:
    """The last such day not after `today`: this month's, else last month's."""
    match = _DAY_OF_MONTH.search(text)
    if match is None:
        return None
    day = int(match["day"])
    month_start = today.replace(day=1)
    for first in (month_start, (month_start - timedelta(days=1)).replace(day=1)):
        try:
            written = first.replace(day=day)
        except ValueError:
            continue
        if written <= today:
            return written
    return None


def two_readings(message: str, today: date) -> tuple[date, date] | None:
    """The two days a numeric date of `message` may be, day-first then month-first, when
    both are real and differ ("6/11": 6 November or 11 June; "12/10/2026") — None when no
    numeric date is in doubt ("13/11" is only 13 November, "5/5" one day either way).

    Why: an English message to a Venezuelan operator may be written either way — the
    subscriber's usage is day-first, the language's month-first — so such a date is asked
    about, never read one way and answered (a rate, a report) for a day they did not mean.
    A day without a year is the last such day (`last_such_day`)."""
    for mention in find_dates(fold(message), day_first=None):
        if mention.style is not DateStyle.NUMERIC or mention.value or mention.month_day:
            continue
        first, second, *year = (int(n) for n in re.findall(r"\d+", mention.literal))
        readings = [
            _numeric_day((m, d), year, today) for m, d in ((second, first), (first, second))
        ]
        if readings[0] and readings[1] and readings[0] != readings[1]:
            return readings[0], readings[1]
    return None


def _numeric_day(month_day: tuple[int, int], year: list[int], today: date) -> date | None:
    if not year:
        return last_such_day(month_day, today)
    try:
        return date(year[0] + (2000 if year[0] < 100 else 0), *month_day)
    except ValueError:
        return None


def names_a_day(text: str) -> bool:
    """Whether folded `text` names a day (a date, "ayer", "el sábado", "el 6"), read as
    `day_said` reads it — for any day, not only a past one."""
    return bool(find_dates(text) or find_relative_dates(text) or _DAY_OF_MONTH.search(text))


def day_said(message: str, today: date, *, day_first: bool | None = True) -> date | None:
    """The day `message` names — a date ("el sábado 7 de noviembre", the last one not after
    `today` when it has no year), "ayer", "hoy", a day of the month alone ("el 6": the last
    6th) — or None. A report's day is read without that last form (`_payment_date`): there
    a bare "el 6" is too easily something else to file a payment under."""
    text = fold(message)
    return _payment_date(text, today, day_first, []) or _day_of_month(text, today)


def _glued_to_a_currency_only(text: str, start: int, end: int) -> bool:
    """Whether the figure `text[start:end]` touches no letters but its currency's: "1310bs",
    "bs1310", "Bs.1310", "25usd", "1310bolos" are figures; the digits of "ref0045127",
    "V12345678" or "7HG52K" are not."""
    before = text[start - 1 : start]
    if (before.isalpha() or before == ".") and currency_before(text, start) is None:
        return False
    return not text[end : end + 1].isalpha() or unit_after(text, end) is not None


_Figure = tuple[int, int, Decimal, str | None]
"""A figure's span, value and unit."""


def _figures(text: str, asked: str | None, taken: list[Span]) -> list[_Figure]:
    """The figures an amount may be, in order: every one with cents, and a whole number with
    a currency beside it (glued or not), or any as the answer to "¿cuánto pagaste?"."""
    figures: list[_Figure] = []
    for mention in find_amounts(text):
        if _free(taken, mention.start, mention.end) and mention.dash is None:
            unit = unit_of(text, mention.start, mention.end)
            figures.append((mention.start, mention.end, mention.value, unit))
    for match in _WHOLE_AMOUNT.finditer(text):
        start, end = match.span()
        if not _free(taken, start, end) or not _glued_to_a_currency_only(text, start, end):
            continue
        unit = unit_of(text, start, end)
        if unit in CURRENCIES or asked == "amount":
            value = amount_value(f"{re.sub(r'[.,]', '', match['n'])},00")
            if value is not None:
                figures.append((start, end, value, unit))
    return sorted(figures)


def _in_a_currency(text: str) -> list[Span]:
    """Where `text` states a figure with its currency ("1310 bs", "usd25")."""
    return [(start, end) for start, end, _, unit in _figures(text, None, []) if unit in CURRENCIES]


def _amount(text: str, asked: str | None, taken: list[Span]) -> tuple[Decimal, str | None] | None:
    """The first figure with a currency beside it, else the first with cents (or, answering
    "¿cuánto pagaste?", the first whole number)."""
    figures = _figures(text, asked, taken)
    known = [f for f in figures if f[3] in CURRENCIES]
    bare = [f for f in figures if f[3] is None]
    chosen = min(known or bare, default=None)
    if chosen is None:
        return None
    _, _, value, unit = chosen
    return value, unit


_DENIED_BANK = re.compile(
    r"\b(?:no|not|ni|nor|wasn'?t|isn'?t|was not|is not|en vez de|instead of|rather than)"
    r"(?: (?:era|fue|es|de|del|desde|por|from|the|by|it|via))* ?$"
)
"""A bank named only to be denied — "no era Banesco, era Mercantil", "it wasn't banesco",
"Mercantil, no Banesco", "en vez de Banesco": the words just before it."""


def _banks(text: str) -> list[BankMention]:
    """Every bank folded `text` names, in order."""
    found: list[BankMention] = []
    at = 0
    while (mention := find_bank(text[at:])) is not None:
        found.append(replace(mention, start=at + mention.start, end=at + mention.end))
        at += mention.end
    return found


def _bank_meant(text: str, mentions: list[BankMention]) -> str | None:
    """The one bank `mentions` name once a denied one is set aside ("no era Banesco, era
    Mercantil" is Mercantil). Bias: two banks both said ("de Banesco a Mercantil": the
    payer's and the operator's?) are no bank read — the turn asks which one paid — never
    the first taken for it."""
    kept = {m.bank.code for m in mentions if not _DENIED_BANK.search(text[: m.start].rstrip())}
    return kept.pop() if len(kept) == 1 else None


def read_payment_report(
    message: str, today: date, asked: str | None = None, *, day_first: bool | None = True
) -> ReportReading:
    """The report fields `message` states, read on `today` ("ayer" is the day before);
    `asked` is the field the last turn asked for, which bare digits may answer; `day_first`
    reads `09/11/2026` as 9 November (Spanish) or, False, as 11 September; None reads no
    value into a numeric date both ways allow (`two_readings` says which two)."""
    text = _OLD_BOLIVAR.sub(lambda m: "bs".ljust(len(m[0])), fold(message))
    taken: list[Span] = []
    mentions = _banks(text)
    if asked in ("reference", "amount"):
        # Four bare digits answering "¿cuál es la referencia?" are the reference.
        mentions = [m for m in mentions if not text[m.start : m.end].isdigit()]
    taken.extend((m.start, m.end) for m in mentions)
    bank = _bank_meant(text, mentions)
    reference = _reference(text, asked, taken)
    paid_on = _payment_date(text, today, day_first, taken)
    amount = _amount(text, asked, taken)
    if bank is None and asked == "bank":
        bare = re.search(r"\b\d{4}\b", text)
        bank = bare[0] if bare and bank_named(bare[0]) else None
    return ReportReading(
        method=_method(text),
        amount=amount[0] if amount else None,
        currency=amount[1] if amount else None,
        reference=reference,
        bank=bank,
        payment_date=paid_on,
        several_references=len(_references(text)) > 1,
        day_in_doubt=paid_on is None
        and day_first is None
        and two_readings(text, today) is not None,
    )


def with_currency_of_method(reading: ReportReading, method: str | None) -> ReportReading:
    """An amount written without a currency is in the method's one currency ("por 46,40" of
    a Pago Móvil is bolívares); a currency written stays as written."""
    if reading.amount is None or reading.currency is not None or method is None:
        return reading
    return replace(reading, currency=METHOD_CURRENCY[method])
