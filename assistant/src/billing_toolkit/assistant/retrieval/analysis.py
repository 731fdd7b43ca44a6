"""The text analyzer shared by the full-text index of every backend and by queries.

Why our own analyzer instead of the database's: Postgres' default parser splits
``INV-2026-004281`` into ``inv``, ``-2026``, ``-0042``... and SQLite's ``unicode61`` splits it
on the dashes too, so neither can find an identifier by its exact text. Billing questions
hinge on exactly those tokens (invoice numbers, RIF, cédula, account numbers, phones, plan
ids), and an embedding cannot score digits. So identifiers are recognised first, by the
detector the answering pipeline uses (:mod:`billing_toolkit.assistant.text.identifiers`, plan
codes included), and emitted as one canonical term each; the rest of the text becomes words
folded the way every keyword rule folds them (:func:`billing_toolkit.assistant.text.folding.fold`)
and numbers spelled once per value, amounts read as the grounding verifier reads them
(:mod:`billing_toolkit.assistant.text.amounts`). Both backends index the *terms* this module
produces, never raw text, which is also what makes their rankings identical.

Canonicalisation is the detector's: only equivalences the source system itself treats as
the same identifier (case, Unicode dashes, the dotted and undotted ways people write a
cédula, the local and E.164 forms of a phone number). It never drops digits or leading
zeros: two different invoices must never collapse into one term.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from billing_toolkit.assistant.retrieval.stemming import word_stems
from billing_toolkit.assistant.retrieval.stopwords import STOPWORDS
from billing_toolkit.assistant.text.amounts import amount_value
from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.text.identifiers import Identifier, IdentifierKind, find_identifiers

ANALYZER_VERSION = "4"
"""Bumped whenever the terms produced for the same text change; a store indexed by another
version must be rebuilt, or queries would look for terms its rows do not hold
(2: identifiers detected by :mod:`billing_toolkit.assistant.text.identifiers`; 3: amounts read
by :mod:`billing_toolkit.assistant.text.amounts`, so ``45,5`` is ``45.5``, and words folded by
:func:`billing_toolkit.assistant.text.folding.fold`; 4: words indexed under their Spanish and
English Snowball stems, :mod:`billing_toolkit.assistant.retrieval.stemming`)."""

_EVERY_KIND = frozenset(IdentifierKind)
_WORD = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")
_THOUSANDS_GROUPED = re.compile(r"^\d{1,3}(?:[.,]\d{3})+$")


@dataclass(frozen=True, slots=True)
class QueryTerms:
    """What a query asks the full-text index for.

    ``identifiers`` are canonical identifier terms (always searched on their own, never
    AND-ed with the words); ``words`` are the terms of the content words, stopwords removed:
    a number as one term, a word as its stems. ``groups`` says which terms stand for the same
    word of the question (``reconecten`` → ``("reconect", "reconecten")``), so "every word
    is in the chunk" means one term of each group; left empty, each word is its own group.
    """

    identifiers: tuple[str, ...]
    words: tuple[str, ...]
    groups: tuple[tuple[str, ...], ...] = ()

    def __post_init__(self) -> None:
        if not self.groups:
            object.__setattr__(self, "groups", tuple((word,) for word in self.words))

    @property
    def all_terms(self) -> tuple[str, ...]:
        return self.identifiers + self.words

    def __bool__(self) -> bool:
        return bool(self.identifiers or self.words)


def _identifier_digits(kind: IdentifierKind, term: str) -> str | None:
    """The bare number of a cédula/RIF, indexed too so ``12345678`` alone still hits."""
    if kind is IdentifierKind.NATIONAL_ID:
        return re.sub(r"[^0-9]", "", term)
    return None


def canonical_number(token: str) -> str:
    """One spelling per numeric value, whatever the locale.

    An amount (see :mod:`billing_toolkit.assistant.text.amounts`) is written with a `.`
    decimal mark and no grouping: ``250,00`` and ``250.00`` become ``250.00``, ``1.500,00``
    and ``1,500.00`` become ``1500.00``. Thousands groups alone, ``12.345.678``, become
    ``12345678``. Anything else is kept as written.
    """
    value = amount_value(token)
    if value is not None:
        return str(value)
    if _THOUSANDS_GROUPED.match(token):
        return re.sub(r"[.,]", "", token)
    return token


def fold_plural(word: str) -> str:
    """A deliberately light stemmer for Spanish and English plurals, for the lexical embedder.

    ``facturas``/``factura``, ``pagos``/``pago``, ``fees``/``fee``, ``reconexiones``/
    ``reconexion`` meet; nothing else is touched. The full-text index stems for real
    (:mod:`billing_toolkit.assistant.retrieval.stemming`); the embedder's character n-grams
    already forgive suffixes, and its vectors stay those of ``hashing-char345-v1``.
    """
    if len(word) > 5 and word.endswith("iones"):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _identifier_terms(text: str) -> Iterator[tuple[Identifier, str]]:
    """Each valid identifier of every kind, plan codes included, with its one index term:
    the canonical key, lower-cased.

    An identifier-shaped typo (``INV-2026-04281``) is no key any chunk can hold, so its text
    is searched as plain words instead; when in doubt, the text stays searchable.
    """
    for identifier in find_identifiers(text, _EVERY_KIND):
        if identifier.normalized is not None:
            yield identifier, identifier.normalized.lower()


def _tokens(text: str) -> Iterator[tuple[str, bool]]:
    """The content tokens of ``text``, folded, each with whether it is a number: a number is
    spelled once per value (:func:`canonical_number`) and never stemmed."""
    for raw in _WORD.findall(fold(text)):
        if raw[0].isdigit():
            yield canonical_number(raw), True
        elif len(raw) > 1 and raw not in STOPWORDS:
            yield raw, False


def content_words(text: str) -> list[str]:
    """The words of ``text`` that carry meaning: normalised, stopwords removed, in order.

    Identifiers are *not* recognised here; this is the view the lexical embedder uses.
    """
    return [token if number else fold_plural(token) for token, number in _tokens(text)]


def _term_groups(text: str) -> Iterator[tuple[str, ...]]:
    for token, number in _tokens(text):
        yield (token,) if number else word_stems(token)


def analyze_query(text: str) -> QueryTerms:
    """Split a query into canonical identifiers and content-word terms, each once, in order.

    Identifiers are cut out of the text before any word is stemmed, so an invoice number, a
    cédula or a plan code is only ever its exact canonical term.
    """
    identifiers: dict[str, None] = {}
    groups: dict[tuple[str, ...], None] = {}
    cursor = 0
    for identifier, term in _identifier_terms(text):
        groups.update(dict.fromkeys(_term_groups(text[cursor : identifier.start])))
        identifiers[term] = None
        digits = _identifier_digits(identifier.kind, term)
        if digits:
            groups[(digits,)] = None
        cursor = identifier.end
    groups.update(dict.fromkeys(_term_groups(text[cursor:])))
    kept = [g for g in (tuple(t for t in group if t not in identifiers) for group in groups) if g]
    words = tuple(dict.fromkeys(term for group in kept for term in group))
    return QueryTerms(tuple(identifiers), words, tuple(dict.fromkeys(kept)))


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """What a store keeps of a chunk's text: its distinct terms, sorted for a stable row, and
    its length for BM25 in distinct *words* (identifiers, numbers, words), not terms.

    Why words: a word has one term or two (its Spanish and English stems differ more often
    for Spanish words), so counting terms would make a Spanish chunk "longer" than its
    English twin of the same text and rank it lower for no reason a reader would see.
    """

    terms: tuple[str, ...]
    length: int


def index_entry(text: str) -> IndexEntry:
    query = analyze_query(text)
    return IndexEntry(
        tuple(sorted(set(query.all_terms))), len(query.identifiers) + len(query.groups)
    )
