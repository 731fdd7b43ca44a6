"""Which billing period a message asks about: "el recibo de julio", "la del mes pasado".

A subscriber names an invoice by its month far more often than by its number. This module
only *reads* the period; the turn resolves it among the subscriber's own invoices
(`turn/invoice_choice.py`): the invoice whose billing period starts in that month.

What counts as a period request:
- a month word (full name, the misspellings of `text/months.py`, English names) next to an
  invoice word ("la factura de setiembre", "the July bill", "bill for october"), or after
  "la de" / "el de" / "the one from" ("la de otubre", "the one from July"), optionally with a year ("julio de 2025", "july 2025");
- a relative month — "este mes", "el mes pasado", "el mes antepasado", "this month", "last
  month", "the month before last" — with an invoice word, "la del" or
  "the one from" ("la del mes pasado", "the one from last month"); "la factura pasada" and
  "la penúltima factura" are last month's, "la antepenúltima factura" the month before's
  (billing is monthly: the one before the current;
  "la anterior" / "the previous one" point back instead, `referring.py`).

Bias: a month alone is not a period request. "¿cuánto debo este mes?" is a balance question
and "vence el 21 de noviembre" is a date, so without an invoice word (or "la de") next to it
a month word is left to the intent model; a day before the month ("6 de julio") makes it a
date, not a period. English "may" and "march" count only where a month is expected ("for
May", "the May bill").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.text.months import month_in_message

_INVOICE_WORD = (
    r"(?:factura|facturas|recibo|recibos|cobro|estado de cuenta|invoice|invoices|bill|bills|"
    r"statement)"
)
_THE_ONE = r"(?:(?:la|el|lo) del?|the one (?:from|for|of|in))"
_PAID = (
    r"(?:pague|pagamos|pagado|abone|abonamos|transferi|deposite|mis? pagos?|(?:el|los) pagos?"
    r"|paid|my payments?|the payments?|did (?:i|we) pay)"
)
"""A payment made, past tense or possessed: "cuánto pagué en agosto", "mi pago de septiembre",
"what did I pay in August" — never "pagar"/"pay" (what is to be paid is the invoice's)."""
_RELATIVE = (
    (
        2,
        re.compile(
            r"\b(?:mes antepasado|the month before last"
            r"|antepenultim[oa](?= (?:factura|recibo))|(?<=factura )antepenultima"
            r"|(?<=recibo )antepenultimo)\b"
        ),
    ),
    (
        1,
        re.compile(
            r"\b(?:mes pasado|ultimo mes|mes anterior|last month|previous month"
            r"|(?<=factura )pasada|(?<=recibo )pasado|penultim[oa](?= (?:factura|recibo)))\b"
        ),
    ),
    (0, re.compile(r"\b(?:este mes|mes actual|this month|current month)\b")),
)
_WORD = re.compile(r"[a-z]+")
_YEAR = re.compile(r"^\s*(?:de |del |of |,\s*)?(20\d\d)\b")
_DAY_BEFORE = re.compile(r"\b\d{1,2}(?: de| of)? $")
_AMBIGUOUS_EN = frozenset({"may", "march"})
_EXPECTED_BEFORE = re.compile(r"\b(?:for|of|from|in|the|de|del)\s+$")
_NEAR = 24
"""How many characters may separate an invoice word and the month ("la factura del mes de
julio" fits; a month at the other end of a long message does not)."""


@dataclass(frozen=True, slots=True)
class PeriodAsked:
    """A billing period as the subscriber named it.

    Exactly one of `month` (1–12, with `year` when they wrote one) and `months_back` (0 this
    month, 1 last month, 2 the month before) is set; `literal` is the words they used.
    """

    literal: str
    month: int | None = None
    year: int | None = None
    months_back: int | None = None


def _anchored(text: str, start: int, end: int, anchors: tuple[str, str]) -> bool:
    """The first of `anchors` close before the words at [start, end) ("la factura de",
    "pagué en"), or the second right after them ("the July bill", "my August payment")."""
    before = text[max(0, start - _NEAR) : start]
    after = text[end : end + _NEAR]
    return bool(
        re.search(rf"\b(?:{anchors[0]})\b", before)
        or re.match(rf"^(?:'s|s)?\s+(?:{anchors[1]})\b", after)
    )


def period_asked(message: str) -> PeriodAsked | None:
    """The billing period `message` asks for, or None (see the module rules)."""
    return _period_in(message, (f"{_INVOICE_WORD}|{_THE_ONE}", _INVOICE_WORD))


def payment_period_asked(message: str) -> PeriodAsked | None:
    """The month a payment was made in that `message` asks about ("¿cuánto pagué en
    agosto?", "my August payment"), read as `period_asked` reads an invoice's; None when no
    payment word stands by the month."""
    return _period_in(message, (_PAID, r"payments?"))


_FOLLOW_UP = r"(?:y|e|and|what about|how about)(?: (?:en|de|del|el de|la de|in|for|from))?"
"""A follow-up's opening before its month: "¿y en agosto?", "and in June?", "y la de julio?"."""
FOLLOW_UP_WORDS = 5


_COMPARED = (
    r"(?:vs|versus|comparad[oa]s? (?:con|a)|en comparacion (?:con|a)|compared (?:to|with)"
    r"|than|frente a|con respecto a|contra|y la de|and the one from)"
)
"""What sets a second month against the first: "octubre vs septiembre", "higher than
September", "comparada con la de agosto"."""


def compared_periods(message: str) -> tuple[PeriodAsked, ...]:
    """The periods a comparison of bills names, in the order written ("¿por qué la de
    octubre salió más alta que la de septiembre?": both; "¿por qué subió la factura de
    noviembre?": one): each next to an invoice word, "la de", or a comparing word
    ("octubre vs septiembre": both). Two
    periods that are the same month are one."""
    anchors = (f"{_INVOICE_WORD}|{_THE_ONE}|{_COMPARED}", f"{_INVOICE_WORD}|{_COMPARED}")
    found: list[PeriodAsked] = []
    for period in _periods_in(message, anchors):
        if all(
            (p.month, p.year, p.months_back) != (period.month, period.year, period.months_back)
            for p in found
        ):
            found.append(period)
    return tuple(found)


_COUNTED_BACK = re.compile(r"\b(?:la )?(ante)?penultima\b")
""""¿Y la penúltima?", "¿y la antepenúltima?" (an invoice: "la factura"; "el penúltimo" is
a payment's, `referring.py`): counted back from the current one (billing is monthly)."""


def follow_up_period(message: str) -> PeriodAsked | None:
    """The month of a short follow-up that names nothing else ("¿y en agosto?", "and in
    June?", "¿y la antepenúltima?"): the same question as the last one, of another month —
    the turn knows of what (an invoice or a payment) from what the last reply showed."""
    if len(fold(message).split()) > FOLLOW_UP_WORDS:
        return None
    counted = _COUNTED_BACK.search(fold(message))
    if counted is not None:
        return PeriodAsked(counted[0], months_back=2 if counted[1] else 1)
    return _period_in(message, (_FOLLOW_UP, r"(?!)"))


def _period_in(message: str, anchors: tuple[str, str]) -> PeriodAsked | None:
    return next(_periods_in(message, anchors), None)


def _periods_in(message: str, anchors: tuple[str, str]) -> Iterator[PeriodAsked]:
    """Every period `message` names by `anchors`, relative ones first, then months in order."""
    text = " ".join(fold(message).split())
    for months_back, pattern in _RELATIVE:
        match = pattern.search(text)
        if match and _anchored(text, match.start(), match.end(), anchors):
            yield PeriodAsked(match[0], months_back=months_back)
    for word in _WORD.finditer(text):
        month = month_in_message(word[0])
        if month is None or _DAY_BEFORE.search(text[: word.start()]):
            continue
        if word[0] in _AMBIGUOUS_EN and not (
            _EXPECTED_BEFORE.search(text[: word.start()])
            or re.match(rf"^\s+{_INVOICE_WORD}\b", text[word.end() :])
        ):
            continue
        if not _anchored(text, word.start(), word.end(), anchors):
            continue
        year = _YEAR.match(text[word.end() :])
        literal = text[word.start() : word.end() + (year.end() if year else 0)]
        yield PeriodAsked(literal, month=month, year=int(year[1]) if year else None)
