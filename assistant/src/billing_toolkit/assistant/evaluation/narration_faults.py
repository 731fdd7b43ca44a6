"""Narration-fault injection: a narrator wrapper that corrupts replies the way models do.

Models narrate correct numbers wrongly in a few recurring ways; each is a `NarrationFault`:
reading `45.00` as `4.500` (magnitude), swapping two digits, citing a chunk that was never
retrieved, naming the neighbouring invoice number, moving a date by a day, and dropping the
minus sign of a credit. The evaluation wraps the real narrator in `FaultyNarrator` and counts
how many corrupted replies the grounding verifier stops (the target is all of them).

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
from enum import StrEnum

from billing_toolkit.assistant.narrator.base import Narration, NarrationRequest, Narrator
from billing_toolkit.assistant.text.amounts import find_amounts
from billing_toolkit.assistant.text.dates import find_dates, write_like


class NarrationFault(StrEnum):
    MAGNITUDE = "magnitude"
    TRANSPOSED_DIGITS = "transposed_digits"
    INVENTED_CITATION = "invented_citation"
    NEIGHBOURING_INVOICE = "neighbouring_invoice"
    CHANGED_DATE = "changed_date"
    DROPPED_MINUS = "dropped_minus"


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


def _evidence(request: NarrationRequest) -> list[str]:
    return [
        *(r.evidence_text for r in request.tool_results if r.evidence_text),
        *(c.text for c in request.chunks),
    ]


def _absent(candidate: str, evidence: Sequence[str]) -> bool:
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
    dates = [(d.start, d.end) for d in find_dates(reply)]
    return lambda at: not any(start <= at < end for start, end in dates)


def _first(
    reply: str,
    tokens: Iterable[Span],
    corrupt: Callable[[str], str | None],
    evidence: Sequence[str],
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
    return [(a.start, a.end) for a in find_amounts(reply)]


def _digit_runs(reply: str) -> list[Span]:
    return [m.span() for m in _DIGIT_RUN.finditer(reply)]


def _dropped_minus(reply: str, evidence: Sequence[str]) -> Change | None:
    """Drop the minus of the first negative amount, wherever the verifier reads it (`USD
    -12,50`, `-USD 12,50`), unless the unsigned figure is evidence too."""
    outside = _outside_dates(reply)
    for amount in find_amounts(reply):
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


def _neighbouring_invoice(reply: str, evidence: Sequence[str]) -> Change | None:
    for match in _INVOICE.finditer(reply):
        sequence = int(match[2])
        for n in (sequence + 1, sequence - 1):
            neighbour = f"INV-{match[1]}-{n:06d}"
            if 0 < n < 1_000_000 and _absent(neighbour, evidence):
                return _replace(reply, match.start(), match.end(), neighbour)
    return None


def _changed_date(reply: str, evidence: Sequence[str]) -> Change | None:
    known = {d.value for text in evidence for d in find_dates(text)}
    for mention in find_dates(reply):
        if mention.value is None:
            continue
        for shift in _DAY_SHIFTS:
            moved = mention.value + timedelta(days=shift)
            written = write_like(moved, mention)
            if moved not in known and _absent(written, evidence):
                return _replace(reply, mention.start, mention.end, written)
    return None


_TEXT_FAULTS: dict[NarrationFault, Callable[[str, Sequence[str]], Change | None]] = {
    NarrationFault.MAGNITUDE: lambda reply, ev: _first(reply, _amounts(reply), _magnitude, ev),
    NarrationFault.TRANSPOSED_DIGITS: lambda reply, ev: _first(
        reply, _digit_runs(reply), _transpose, ev
    ),
    NarrationFault.NEIGHBOURING_INVOICE: _neighbouring_invoice,
    NarrationFault.CHANGED_DATE: _changed_date,
    NarrationFault.DROPPED_MINUS: _dropped_minus,
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
    changed = _TEXT_FAULTS[fault](narration.reply, _evidence(request))
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
