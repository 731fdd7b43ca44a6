"""Which record a figure of a reply is said of, and which evidence may back it.

With two invoices in the evidence, "INV-A vence el 20 de diciembre" is wrong when the 20th is
INV-B's due date, although the date is in the evidence. So the evidence is read as records,
and a figure said of a record is backed only by that record.

Evidence records. Each evidence text is cut into sentences (the capabilities write one
record per sentence: each invoice, the payment, the balance, the plan, the scheduled change);
a sentence's keys are the invoice, account, payment and plan identifiers it names, and a
sentence naming none continues the record before it ("Line items: …" after "Invoice
INV-A …"). A record is every sentence with its key, so an account's record holds all that is
said of that account, and an invoice's record holds its own sentences and the payment
sentence that applied money to it.

Inside one sentence that names several records, a piece is its own record's: the aside after
an identifier (`Comparing invoice INV-A (issued …, total USD 45.50) with the previous invoice
INV-B (issued …, total USD 32.48)`: each total is its own invoice's), and a `;` clause that
names one of several invoices (`applied USD 20.00 to INV-A; USD 12.48 to INV-B`). An owned
piece still belongs to the sentence's records of other kinds (the account, the payment); the
rest of the sentence (the computed differences of a comparison) to all of its records.

Binding in the reply. A figure or date is said of:
1. the identifier an amount is said towards, right after it ("USD 32,48 a la INV-B", "USD
   12.48 to INV-B": what a payment applied to an invoice);
2. else the nearest identifier before it in its clause (clauses end at `;`, a line break or
   the end of a sentence), and every identifier joined to that one by "y", "e", "and", "o",
   "or", "/", "&" or a comma alone ("INV-A y INV-B vencen el …": both) — a figure said of
   several is backed only when every one of their records backs it, the strictest reading
   of an ambiguous sentence;
3. else the first identifier of its clause, after it ("…; a partir del 5 de enero pasarás
   al PLN-B": the new plan's date);
4. else the first identifier of its sentence (the sentence's subject);
5. else nothing: it is backed by any evidence, as before records existed.
The digits of an identifier (a phone or cédula too) are not figures said of anything: an
identifier is checked as such, and by the identifier guard. Bias: a figure bound to a
record the evidence does not hold is backed by nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from billing_toolkit.assistant.text.identifiers import Identifier, IdentifierKind, find_identifiers

Key = tuple[IdentifierKind, str]

BINDING_KINDS = frozenset(
    {IdentifierKind.INVOICE, IdentifierKind.ACCOUNT, IdentifierKind.PAYMENT, IdentifierKind.PLAN}
)
_SENTENCE_END = re.compile(r"[.!?]+(?=\s+[^\sa-záéíóúñ\d]|\s*\Z)|\n")
_CLAUSE_END = re.compile(r";|\n")
_ASIDE = re.compile(r'[ \t]*(?:"[^"\n]*"[ \t]*)?\([^()\n]*\)')
"""An aside right after an identifier, past its quoted name if any: `INV-A (issued …, total
…)`, `PLN-X "Fibra 100" (100/20 Mbps, …)`."""
_TOWARDS = re.compile(
    r"[\d.,]+(?:[ \t]*(?:USD|VES|Bs\.?|\$|d[oó]lares|dollars|bol[ií]vares))?[ \t]+(?:a|al|to|para|for)[ \t]+(?:(?:la|el|the)[ \t]+)?"
    r"(?:(?:factura|invoice|plan|cuenta|account)[ \t]+)?",
    re.IGNORECASE,
)
"""An amount said *towards* the identifier after it: "USD 32,48 a la INV-B", "USD 12.48 to
INV-B" (what a payment applied to an invoice)."""
_JOINED = re.compile(r"\s*(?:,|/|&|,?\s*(?:y|e|and|o|or))\s*", re.IGNORECASE)


def _spans(text: str, ends: re.Pattern[str]) -> list[tuple[int, int]]:
    spans, start = [], 0
    for match in ends.finditer(text):
        spans.append((start, match.end()))
        start = match.end()
    return [*spans, (start, len(text))]


def _containing(spans: Sequence[tuple[int, int]], at: int) -> tuple[int, int]:
    return next(span for span in spans if span[0] <= at < span[1])


def sentences(text: str) -> list[str]:
    """`text` cut after every sentence end (a `.`, `!`, `?` before a capital, or a line
    break); a `.` before a digit or a lower-case word (`Bs. 45`, `dic. de`) ends nothing."""
    return [text[start:end] for start, end in _spans(text, _SENTENCE_END) if start < end]


def _pieces(sentence: str, found: Sequence[Identifier]) -> list[tuple[str, Identifier | None]]:
    """A sentence cut into the pieces its records are made of, each with the identifier that
    owns it (None: the whole sentence's): the aside after an identifier, and a clause that
    names one identifier of a kind the sentence names several of (see the module docstring).
    An owned piece is blanked out of the rest, which stays the whole sentence's."""
    pieces: list[tuple[str, Identifier | None]] = []
    chars = list(sentence)
    for identifier in found:
        aside = _ASIDE.match(sentence, identifier.end)
        if aside is not None:
            pieces.append((aside[0], identifier))
            chars[aside.start() : aside.end()] = " " * (aside.end() - aside.start())
    rest = "".join(chars)
    kinds = [i.kind for i in found]
    for start, end in _spans(rest, _CLAUSE_END):
        named = [i for i in found if start <= i.start < end]
        owner = named[0] if len(named) == 1 and kinds.count(named[0].kind) > 1 else None
        pieces.append((rest[start:end], owner))
    return pieces


def evidence_records(texts: Sequence[str]) -> dict[Key, list[str]]:
    """Every record key of the evidence and the pieces of sentences that make up its record:
    an owned piece belongs to its owner and to the sentence's keys of other kinds (its
    account, its payment), every other piece to all the sentence's keys."""
    records: dict[Key, list[str]] = {}
    for text in texts:
        keys: set[Key] = set()
        for sentence in sentences(text):
            found = find_identifiers(sentence, BINDING_KINDS)
            keys = {i.key for i in found} or keys
            for piece, owner in _pieces(sentence, found):
                owners = (
                    keys
                    if owner is None
                    else {owner.key} | {k for k in keys if k[0] is not owner.kind}
                )
                for key in owners:
                    records.setdefault(key, []).append(piece)
    return records


@dataclass(frozen=True, slots=True)
class Binder:
    """The binding of every position of one reply (see the module docstring)."""

    identifiers: tuple[Identifier, ...]
    """The identifiers figures are said of (invoice, account, payment, plan)."""
    exempt: tuple[tuple[int, int], ...]
    """Where every identifier stands, phones and IDs too: their digits are said of nothing."""
    sentences: tuple[tuple[int, int], ...]
    clauses: tuple[tuple[int, int], ...]
    text: str

    @classmethod
    def of(cls, answer: str) -> Binder:
        found = find_identifiers(answer, frozenset(IdentifierKind))
        return cls(
            tuple(i for i in found if i.kind in BINDING_KINDS),
            tuple((i.start, i.end) for i in found),
            tuple(_spans(answer, _SENTENCE_END)),
            tuple(_spans(answer, _CLAUSE_END)),
            answer,
        )

    def keys_at(self, at: int) -> tuple[Key, ...]:
        """The records a figure starting at `at` is said of (empty: any evidence)."""
        if any(start <= at < end for start, end in self.exempt):
            return ()
        sentence = _containing(self.sentences, at)
        clause = _containing(self.clauses, at)
        start, end = max(sentence[0], clause[0]), min(sentence[1], clause[1])
        after = next((i for i in self.identifiers if at <= i.start < end), None)
        if after is not None and _TOWARDS.fullmatch(self.text, at, after.start):
            return (after.key,)
        before = [i for i in self.identifiers if start <= i.start and i.end <= at]
        if not before and after is not None:
            return (after.key,)
        if before:
            group = [before[-1]]
            for earlier in reversed(before[:-1]):
                if not _JOINED.fullmatch(self.text, earlier.end, group[-1].start):
                    break
                group.append(earlier)
            return tuple(dict.fromkeys(i.key for i in group))
        first, last = sentence
        subject = next((i for i in self.identifiers if first <= i.start < last), None)
        return () if subject is None else (subject.key,)
