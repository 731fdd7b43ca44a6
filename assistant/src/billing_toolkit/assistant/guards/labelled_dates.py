"""A date said to be when something falls due, was issued or was received must be that date
of the evidence.

With an invoice "issued 2026-11-06; due 2026-11-21", "tu factura vence el 6 de noviembre"
passes the date check — 6 November is in the evidence — yet tells the subscriber they are
already late; "fue emitida el 21 de noviembre" and "recibimos tu pago el 21 de noviembre"
misplace a true date the same way, which is what a language model writing the reply gets
wrong. So a date the reply says of one of these fields — the field's words shortly before it
in its own clause ("vence el 21 de noviembre", "your next due date is November 21", "fue
emitida el", "recibimos tu pago el") — is backed only by an evidence date of that field:
- due: an invoice's `due D`, a balance's `next due date D`, the oldest overdue invoice's
  `fell due D` (`client.due_figures`);
- issued: an invoice's `issued D`, a subscription's `next billing date D` (the day the next
  invoice is issued);
- received: a payment's `received D`, a payment report's `paid D` (the day the subscriber
  says they paid).

A date with no year matches by month and day; a date that reads two ways (`05/11` with no
language) has no value and is left to the date check. Only evidence that gives a date of
the field is read this way: with none, such a date is left to the date check as before.
Between the field's words and the date stand at most eight words — an amount or an id counts
as one — none of them another digit or a conjunction ("emitida el 6 de noviembre y vence el
21": the 21st is the due date, the 6th is not). Bias: when a field's words stand by a date, the date must be one of that field's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import cached_property

from billing_toolkit.assistant.guards.record_binding import sentences
from billing_toolkit.assistant.text.dates import DateMention, find_dates
from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.text.language import Language

_ISO = r"(\d{4}-\d{2}-\d{2})"
_GAP = (
    r"(?:\s+(?!(?:y|e|o|u|and|or|but|pero)\b)"
    r"(?:(?:usd|ves|bs\.?|us\$|\$)\s?\d[\d.,]*\d|(?:pay|inv|prp)-[\d-]+|[^\s\d,;:.]+)){0,8}?\s*$"
)
"""Up to eight words between a field's words and its date: an amount or an id may be one
("recibimos tu pago de USD 32,48 con tarjeta el…"), no other digit (another date), no
conjunction, no clause end."""


@dataclass(frozen=True)
class DateField:
    """One field a reply may say a date is, and the evidence dates that back it."""

    name: str
    words: str
    """The field's words in a folded reply (a regex alternation)."""
    evidence: tuple[re.Pattern[str], ...]
    """Patterns of the evidence's dates of this field (group 1: an ISO date)."""
    other_object: str | None = None
    """Words between the field's words and the date that make the date another thing's
    ("recibimos tu reporte el 5 de noviembre": the report's day, not the payment's)."""

    @cached_property
    def before(self) -> re.Pattern[str]:
        return re.compile(rf"\b(?:{self.words})\b(?P<gap>{_GAP})")


DUE = DateField(
    "due",
    r"vence|vencen|vencio|vencieron|vencera|venceran|vencimiento|vencimientos"
    r"|fecha (?:limite|tope)(?: de pago| para pagar)?|(?:pagar|pagarla|pagarlo|cancelar|cancelarla)"
    r" (?:antes del?|hasta el)|plazo(?: para pagar| de pago)?"
    r"|(?:is|are|was|were|be|fell|falls) due|due(?: date| on| by)?|pay (?:it |this )?by|deadline",
    (
        re.compile(rf"\bdue {_ISO}"),
        re.compile(rf"\bnext due date {_ISO}"),
        re.compile(rf"\bfell due {_ISO}"),
    ),
)
ISSUED = DateField(
    "issued",
    r"emitid[ao]s?|emision|se emite|se emitio|se emitira|se emitiran|se genera|se genero"
    r"|se generara|issued|issue date|(?:is|was|will be|gets) billed on",
    (re.compile(rf"\bissued {_ISO}"), re.compile(rf"\bnext billing date {_ISO}")),
)
RECEIVED = DateField(
    "received",
    r"recibimos|recibido|recibida|se recibio|nos llego|pagaste|abonaste|transferiste"
    r"|depositaste|(?:hiciste|realizaste) (?:el|tu|un|la) (?:pago|transferencia|deposito)"
    r"|we received|(?:was|were) received|you paid|you sent|paid on",
    (re.compile(rf"\breceived {_ISO}"), re.compile(rf"\bpaid {_ISO}")),
    other_object=r"\b(?:reporte|reportes|report|reports|comprobante|capture|captura|mensaje"
    r"|message|solicitud|request|reclamo)\b",
)
FIELDS = (DUE, ISSUED, RECEIVED)


def field_dates(field: DateField, evidence_texts: Sequence[str]) -> frozenset[date]:
    """Every date the evidence gives for `field`."""
    return frozenset(
        date.fromisoformat(match[1])
        for text in evidence_texts
        for pattern in field.evidence
        for match in pattern.finditer(text)
    )


def said_of(field: DateField, folded: str, start: int) -> bool:
    """Whether the date starting at `start` of a folded sentence is said to be of `field`."""
    found = field.before.search(folded[:start])
    if found is None:
        return False
    return field.other_object is None or re.search(field.other_object, found["gap"]) is None


def backed(mention: DateMention, dates: frozenset[date]) -> bool | None:
    """Whether `mention` is one of `dates` (None: it has no reading to hold to them)."""
    if mention.value is not None:
        return mention.value in dates
    if mention.month_day is not None:
        return mention.month_day in {(d.month, d.day) for d in dates}
    return None


def unsupported_dated(
    answer: str, evidence_texts: Sequence[str], language: Language | None = None
) -> tuple[str, ...]:
    """The dates `answer` says are of a field (`FIELDS`) that no date of that field in the
    evidence backs, as written."""
    known = [(f, dates) for f in FIELDS if (dates := field_dates(f, evidence_texts))]
    if not known:
        return ()
    day_first = None if language is None else language is not Language.ENGLISH
    failed = []
    for sentence in sentences(answer):
        folded = fold(sentence)
        for mention in find_dates(folded, day_first):
            if any(
                said_of(field, folded, mention.start) and backed(mention, dates) is False
                for field, dates in known
            ):
                failed.append(mention.literal)
    return tuple(dict.fromkeys(failed))
