"""Narration-fault injection: a narrator wrapper that corrupts replies the way models do.

Models narrate correct numbers wrongly in a few recurring ways; each is a `NarrationFault`:
reading `45.00` as `4.500` (magnitude), swapping two digits, citing a chunk that was never
retrieved, naming the neighbouring invoice number, moving a date by a day, dropping the
minus sign of a credit, telling the right figure in the wrong currency (`USD 45,00` as
`Bs. 45,00`), spelling a wrong amount out in words ("cuarenta y seis dólares"), saying one
record's figure or date of another (invoice A's total next to invoice B), putting a
weekday in front of a date that is not that date's, and saying another figure as the
overdue amount, the credit or the net balance (the amount due given as "saldo a favor").
The evaluation wraps the real narrator in `FaultyNarrator` and counts how many corrupted
replies the grounding verifier stops (the target is all of them).

A corruption is only injected when it really changes the meaning: the corrupted token must
not already appear in the turn's evidence (a "transposed" `45.00` that happens to be another
figure of the same bill is not a fault the verifier could or should catch). When a reply has
nothing to corrupt in the requested way it is returned unchanged, and `last_injection` says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache

from billing_toolkit.assistant.guards import labelled_dates
from billing_toolkit.assistant.guards.labelled_figures import FIELDS, said_to_be, wrong_for
from billing_toolkit.assistant.guards.record_binding import Binder, Key, evidence_records
from billing_toolkit.assistant.narrator.base import Narration, NarrationRequest, Narrator
from billing_toolkit.assistant.narrator.template import METHOD_NAMES
from billing_toolkit.assistant.text.amounts import AmountMention, find_amounts
from billing_toolkit.assistant.text.currencies import currency_before, unit_of
from billing_toolkit.assistant.text.dates import DateMention, DateStyle, find_dates, write_like
from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.number_words import spell_number


class NarrationFault(StrEnum):
    MAGNITUDE = "magnitude"
    TRANSPOSED_DIGITS = "transposed_digits"
    INVENTED_CITATION = "invented_citation"
    NEIGHBOURING_INVOICE = "neighbouring_invoice"
    CHANGED_DATE = "changed_date"
    DROPPED_MINUS = "dropped_minus"
    CURRENCY_SWAP = "currency_swap"
    WRONG_VALUE_IN_WORDS = "wrong_value_in_words"
    CROSS_RECORD_FIGURE = "cross_record_figure"
    CROSS_RECORD_DATE = "cross_record_date"
    WRONG_WEEKDAY = "wrong_weekday"
    WRONG_FIELD_FIGURE = "wrong_field_figure"
    WRONG_FIELD_DATE = "wrong_field_date"
    WRONG_PAYMENT_METHOD = "wrong_payment_method"


@dataclass(frozen=True, slots=True)
class Injection:
    """What was corrupted: `original` became `corrupted` (None/None when nothing applied)."""

    fault: NarrationFault
    original: str | None
    corrupted: str | None

    @property
    def applied(self) -> bool:
        return self.corrupted is not None


_DIGIT_RUN = re.compile(r"(?<![\d.,])\d[\d.,]*\d(?!\d)")
"""What a transposition may swap digits in: any run of digits, identifiers' included."""
_INVOICE = re.compile(r"\bINV-(\d{4})-(\d{6})\b")
_INVENTED_CHUNK_ID = "kb-invented-0001"
_DAY_SHIFTS = (1, -1, 2, -2)

Change = tuple[str, str, str]
"""A corrupted reply, the original token and its corruption."""
Span = tuple[int, int]


Evidence = tuple[str, ...]
_REMEMBERED = 1024
"""How many texts the readers below remember: the probe tries every kind on each reply and
the fault runs narrate the same replies over the same evidence once per kind, so the same
text is read many times (each reader is a pure function of its text)."""


@lru_cache(maxsize=_REMEMBERED)
def _dates_of(text: str) -> tuple[DateMention, ...]:
    return tuple(find_dates(text))


@lru_cache(maxsize=_REMEMBERED)
def _amounts_of(text: str) -> tuple[AmountMention, ...]:
    return tuple(find_amounts(text))


def _evidence(request: NarrationRequest) -> Evidence:
    return (
        *(r.evidence_text for r in request.tool_results if r.evidence_text),
        *(c.text for c in request.chunks),
    )


def _absent(candidate: str, evidence: Evidence) -> bool:
    """Neither the candidate nor its `.`/`,`-swapped form is a whole token of the evidence."""
    swapped = candidate.translate(str.maketrans(".,", ",."))
    patterns = [
        re.compile(r"(?<![\d.,])(?<![^0-9A-Za-z]-)" + re.escape(form) + r"(?!\d|[.,]\d)")
        for form in (candidate, swapped)
    ]
    return not any(p.search(" " + text) for p in patterns for text in evidence)


def _replace(reply: str, start: int, end: int, corrupted: str) -> Change:
    return reply[:start] + corrupted + reply[end:], reply[start:end], corrupted


def _outside_dates(reply: str) -> Callable[[int], bool]:
    """Whether a position of `reply` is outside its dates (a date has its own fault)."""
    dates = [(d.start, d.end) for d in _dates_of(reply)]
    return lambda at: not any(start <= at < end for start, end in dates)


def _first(
    reply: str,
    tokens: Iterable[Span],
    corrupt: Callable[[str], str | None],
    evidence: Evidence,
) -> Change | None:
    """Corrupt the first token (outside dates) whose corruption is a real change."""
    outside = _outside_dates(reply)
    for token_start, token_end in tokens:
        if not outside(token_start):
            continue
        corrupted = corrupt(reply[token_start:token_end])
        if corrupted is not None and _absent(corrupted, evidence):
            return _replace(reply, token_start, token_end, corrupted)
    return None


def _amounts(reply: str) -> list[Span]:
    """The digits of every amount, as the verifier reads amounts."""
    return [(a.start, a.end) for a in _amounts_of(reply)]


def _digit_runs(reply: str) -> list[Span]:
    return [m.span() for m in _DIGIT_RUN.finditer(reply)]


def _dropped_minus(reply: str, evidence: Evidence) -> Change | None:
    """Drop the minus of the first negative amount, wherever the verifier reads it (`USD
    -12,50`, `-USD 12,50`), unless the unsigned figure is evidence too."""
    outside = _outside_dates(reply)
    for amount in _amounts_of(reply):
        if amount.dash is None or amount.ambiguous or not outside(amount.dash):
            continue
        if _absent(reply[amount.start : amount.end], evidence):
            return _replace(reply, amount.dash, amount.end, reply[amount.dash + 1 : amount.end])
    return None


def _magnitude(token: str) -> str | None:
    """`45,00` → `4.500`: the decimals read as thousands."""
    digits = re.sub(r"\D", "", token)
    return f"{int(digits[:-3])}.{digits[-3:]}" if len(digits) >= 4 else None


def _transpose(token: str) -> str | None:
    """Swap the last two adjacent, different digits: `004281` → `004218`."""
    chars = list(token)
    for right in range(len(chars) - 1, 0, -1):
        left = right - 1
        if chars[left].isdigit() and chars[right].isdigit() and chars[left] != chars[right]:
            chars[left], chars[right] = chars[right], chars[left]
            return "".join(chars)
    return None


def _neighbouring_invoice(reply: str, evidence: Evidence) -> Change | None:
    for match in _INVOICE.finditer(reply):
        sequence = int(match[2])
        for n in (sequence + 1, sequence - 1):
            neighbour = f"INV-{match[1]}-{n:06d}"
            if 0 < n < 1_000_000 and _absent(neighbour, evidence):
                return _replace(reply, match.start(), match.end(), neighbour)
    return None


def _changed_date(reply: str, evidence: Evidence) -> Change | None:
    known = {d.value for text in evidence for d in _dates_of(text)}
    for mention in _dates_of(reply):
        if mention.value is None:
            continue
        for shift in _DAY_SHIFTS:
            moved = mention.value + timedelta(days=shift)
            written = write_like(moved, mention)
            if moved not in known and _absent(written, evidence):
                return _replace(reply, mention.start, mention.end, written)
    return None


_SWAPPED_CURRENCY = {"USD": ("VES", "Bs."), "VES": ("USD", "USD")}
"""Each currency the billing system uses, and the other one with how a reply writes it."""
_CURRENCY_WORD = {
    (Language.SPANISH, "USD"): "dólares",
    (Language.SPANISH, "VES"): "bolívares",
    (Language.ENGLISH, "USD"): "dollars",
    (Language.ENGLISH, "VES"): "bolívars",
}
_WEEKDAY_NAMES = {
    Language.SPANISH: ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
    Language.ENGLISH: (
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ),
}
_STYLE_LANGUAGE = {DateStyle.SPANISH: Language.SPANISH, DateStyle.ENGLISH: Language.ENGLISH}
"""A long-form date is in its own language; an ISO or numeric one in the reply's."""
_MAX_SPELLED = 10**6


@lru_cache(maxsize=_REMEMBERED)
def _amounts_in(evidence: Evidence) -> frozenset[tuple[Decimal, str | None]]:
    """Every amount of the evidence with the unit written beside it."""
    return frozenset(
        (a.value, unit_of(text, a.start, a.end)) for text in evidence for a in _amounts_of(text)
    )


def _currency_swap(reply: str, evidence: Evidence) -> Change | None:
    """`USD 45,00` → `Bs. 45,00` (and VES → USD) for the first amount with its currency
    written before it, unless the evidence holds the same figure in the other currency."""
    known = _amounts_in(evidence)
    for amount in _amounts_of(reply):
        written = currency_before(reply, amount.dash if amount.dash is not None else amount.start)
        if written is None or written[2] not in _SWAPPED_CURRENCY:
            continue
        other, symbol = _SWAPPED_CURRENCY[written[2]]
        if (amount.value, other) not in known:
            return _replace(reply, written[0], written[1], symbol)
    return None


def _wrong_value_in_words(reply: str, language: Language, evidence: Evidence) -> Change | None:
    """`USD 45,00` → "cuarenta y seis dólares": the first positive amount with its currency,
    one unit more and spelled out, unless the evidence holds that value too."""
    known = _amounts_in(evidence)
    for amount in _amounts_of(reply):
        written = currency_before(reply, amount.start)
        wrong = int(amount.value) + 1
        if written is None or amount.dash is not None or wrong >= _MAX_SPELLED:
            continue
        word = _CURRENCY_WORD.get((language, written[2]))
        if word is None or (Decimal(wrong), written[2]) in known:
            continue
        spelled = spell_number(wrong, english=language is Language.ENGLISH)
        return _replace(reply, written[0], amount.end, f"{spelled} {word}")
    return None


def _bound(binder: Binder, at: int) -> Key | None:
    keys = binder.keys_at(at)
    return keys[0] if len(keys) == 1 else None


def _cross_record(
    reply: str,
    evidence: Evidence,
    spans: Sequence[tuple[int, int]],
    stated: Callable[[str, str], bool],
) -> Change | None:
    """Put the first figure said of one record where a figure of another record stands:
    `spans` are the figures of the reply; `stated(figure, record_text)` tells whether a
    record already states that figure (then the swap would not be a fault)."""
    binder = Binder.of(reply)
    records = {key: " ".join(texts) for key, texts in evidence_records(evidence).items()}
    bound = [(span, _bound(binder, span[0])) for span in spans]
    for (start, end), key in bound:
        for (other_start, other_end), other in bound:
            figure = reply[other_start:other_end]
            if key is None or other in (None, key) or key not in records:
                continue
            if not stated(figure, records[key]):
                return _replace(reply, start, end, figure)
    return None


def _cross_record_figure(reply: str, evidence: Evidence) -> Change | None:
    def stated(figure: str, record: str) -> bool:
        values = {a.value for a in _amounts_of(figure)}
        return bool(values & {a.value for a in _amounts_of(record)})

    return _cross_record(reply, evidence, _amounts(reply), stated)


def _cross_record_date(reply: str, evidence: Evidence) -> Change | None:
    def stated(figure: str, record: str) -> bool:
        values = {d.value for d in _dates_of(figure)}
        return bool(values & {d.value for d in _dates_of(record)})

    dated = [(d.start, d.end) for d in _dates_of(reply) if d.value is not None]
    return _cross_record(reply, evidence, dated, stated)


def _wrong_weekday(reply: str, language: Language) -> Change | None:
    """`el 15 de diciembre de 2026` → `el miércoles 15 de diciembre de 2026` when the 15th
    is a Tuesday: the day after the right weekday, in the date's own language."""
    for mention in _dates_of(reply):
        if mention.value is None or mention.weekday is not None:
            continue
        names = _WEEKDAY_NAMES[_STYLE_LANGUAGE.get(mention.style, language)]
        wrong = names[(mention.value.weekday() + 1) % len(names)]
        return _replace(reply, mention.start, mention.end, f"{wrong} {mention.literal}")
    return None


def _wrong_field_figure(reply: str, evidence: Evidence) -> Change | None:
    """The first amount said of a labelled field ("saldo a favor: USD 0,00") takes the
    digits of another amount of the reply that the evidence says is wrong for that field
    ("saldo a favor: USD 32,48": the amount due said as the credit; "debes USD 7,52": the
    credit said as owed)."""
    text = reply.lower()  # the fields' words need no accent folding; offsets stay the reply's
    mentions = _amounts_of(reply)
    for field in FIELDS:
        wrong = wrong_for(field, evidence)
        if wrong is None:  # the guard reads no figure of this field: nothing to say wrongly
            continue
        for mention in (m for m in mentions if said_to_be(field, text, m.start, m.end)):
            for other in mentions:
                if wrong(abs(other.value)):
                    return _replace(
                        reply, mention.start, mention.end, reply[other.start : other.end]
                    )
    return None


def _wrong_field_date(reply: str, evidence: Evidence) -> Change | None:
    """The first date said of a labelled field ("vence el 21 de noviembre de 2026") takes
    another date of the evidence that is not that field's ("vence el 6 de noviembre de
    2026": the issue date said as the due date), written the same way."""
    folded = fold(reply)
    if len(folded) != len(reply):  # offsets must stay the reply's
        return None
    known = sorted({d.value for text in evidence for d in _dates_of(text) if d.value})
    for mention in (m for m in _dates_of(reply) if m.value is not None):
        for field in labelled_dates.FIELDS:
            dates = labelled_dates.field_dates(field, evidence)
            if not dates or not labelled_dates.said_of(field, folded, mention.start):
                continue
            for other in (d for d in known if d not in dates):
                return _replace(reply, mention.start, mention.end, write_like(other, mention))
    return None


_METHOD_LABELS = tuple(
    tuple(names[language] for names in METHOD_NAMES.values()) for language in (0, 1)
)
"""How the template narrator names each payment method, Spanish then English: a fault says
another of the same language."""
_BRACKETED_METHOD = re.compile(
    r"\bPAY-\d+\b(?:[^.;]|\.(?=\d)|(?<=Bs)\.)*?\(("
    + "|".join(sorted({re.escape(m) for ms in _METHOD_LABELS for m in ms}))
    + r")\)"
)


def _wrong_payment_method(reply: str, evidence: Evidence) -> Change | None:
    """`PAY-… por USD 32,48 (efectivo)` → `(tarjeta en punto de venta)`: the next method of
    the same language — no figure changes, only what the payment is said to have been."""
    match = _BRACKETED_METHOD.search(reply)
    if match is None:
        return None
    labels = next(ms for ms in _METHOD_LABELS if match[1] in ms)  # "Pago Móvil": Spanish's
    other = labels[(labels.index(match[1]) + 1) % len(labels)]
    return _replace(reply, match.start(1), match.end(1), other)


_TEXT_FAULTS: dict[NarrationFault, Callable[[str, Evidence], Change | None]] = {
    NarrationFault.MAGNITUDE: lambda reply, ev: _first(reply, _amounts(reply), _magnitude, ev),
    NarrationFault.TRANSPOSED_DIGITS: lambda reply, ev: _first(
        reply, _digit_runs(reply), _transpose, ev
    ),
    NarrationFault.NEIGHBOURING_INVOICE: _neighbouring_invoice,
    NarrationFault.CHANGED_DATE: _changed_date,
    NarrationFault.DROPPED_MINUS: _dropped_minus,
    NarrationFault.CURRENCY_SWAP: _currency_swap,
    NarrationFault.CROSS_RECORD_FIGURE: _cross_record_figure,
    NarrationFault.CROSS_RECORD_DATE: _cross_record_date,
    NarrationFault.WRONG_FIELD_FIGURE: _wrong_field_figure,
    NarrationFault.WRONG_FIELD_DATE: _wrong_field_date,
    NarrationFault.WRONG_PAYMENT_METHOD: _wrong_payment_method,
}
_LANGUAGE_FAULTS: dict[NarrationFault, Callable[[str, Language, Evidence], Change | None]] = {
    NarrationFault.WRONG_VALUE_IN_WORDS: _wrong_value_in_words,
    NarrationFault.WRONG_WEEKDAY: lambda reply, language, _: _wrong_weekday(reply, language),
}


def corrupt(
    narration: Narration, fault: NarrationFault, request: NarrationRequest
) -> tuple[Narration, Injection]:
    """Apply one fault to a narration, if the reply offers something to corrupt."""
    if fault is NarrationFault.INVENTED_CITATION:
        return (
            Narration(narration.reply, (*narration.used_chunk_ids, _INVENTED_CHUNK_ID)),
            Injection(fault, None, _INVENTED_CHUNK_ID),
        )
    evidence = _evidence(request)
    changed = (
        _LANGUAGE_FAULTS[fault](narration.reply, request.language, evidence)
        if fault in _LANGUAGE_FAULTS
        else _TEXT_FAULTS[fault](narration.reply, evidence)
    )
    if changed is None:
        return narration, Injection(fault, None, None)
    reply, original, corrupted = changed
    return Narration(reply, narration.used_chunk_ids), Injection(fault, original, corrupted)


class FaultyNarrator:
    """Wraps a narrator and corrupts every reply with one kind of fault."""

    def __init__(self, inner: Narrator, fault: NarrationFault) -> None:
        self._inner = inner
        self.fault = fault
        self.last_injection: Injection | None = None

    def narrate(self, request: NarrationRequest) -> Narration:
        narration, self.last_injection = corrupt(self._inner.narrate(request), self.fault, request)
        return narration


class FaultProbe:
    """Wraps a narrator and keeps each reply with its request, changing nothing: `offered`
    says which kinds of fault those replies offer something to corrupt, and
    `SuiteRunner.run_faults` runs a conversation again only for those kinds.

    The replies are judged when `offered` is read, kind by kind, up to the first reply that
    offers the kind (`corrupt` is a pure function of the narration and its request, so when
    it runs changes nothing)."""

    def __init__(self, inner: Narrator, kinds: Sequence[NarrationFault]) -> None:
        self._inner = inner
        self._kinds = tuple(kinds)
        self._narrated: list[tuple[Narration, NarrationRequest]] = []

    def narrate(self, request: NarrationRequest) -> Narration:
        narration = self._inner.narrate(request)
        self._narrated.append((narration, request))
        return narration

    @property
    def offered(self) -> set[NarrationFault]:
        return {
            kind
            for kind in self._kinds
            if any(
                corrupt(narration, kind, request)[1].applied
                for narration, request in self._narrated
            )
        }
