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

from billing_toolkit.assistant.retrieval.stopwords import STOPWORDS
from billing_toolkit.assistant.text.amounts import amount_value
from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.text.identifiers import Identifier, IdentifierKind, find_identifiers

ANALYZER_VERSION = "3"
"""Bumped whenever the terms produced for the same text change; a store indexed by another
version must be rebuilt, or queries would look for terms its rows do not hold
(2: identifiers detected by :mod:`billing_toolkit.assistant.text.identifiers`; 3: amounts read
by :mod:`billing_toolkit.assistant.text.amounts`, so ``45,5`` is ``45.5``, and words folded by
:func:`billing_toolkit.assistant.text.folding.fold`)."""

_EVERY_KIND = frozenset(IdentifierKind)
_WORD = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")
_THOUSANDS_GROUPED = re.compile(r"^\d{1,3}(?:[.,]\d{3})+$")


@dataclass(frozen=True, slots=True)
class QueryTerms:
    """What a query asks the full-text index for.

    ``identifiers`` are canonical identifier terms (always searched on their own, never
    AND-ed with the words); ``words`` are the content words, stopwords removed.
    """

    identifiers: tuple[str, ...]
    words: tuple[str, ...]

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
    """A deliberately light stemmer for Spanish and English plurals.

    ``facturas``/``factura``, ``pagos``/``pago``, ``fees``/``fee``, ``reconexiones``/
    ``reconexion`` meet; nothing else is touched. A full Snowball stemmer needs the query's
    language, which a WhatsApp message does not declare, and over-stemming merges words an
    operator keeps apart (``cargo``/``carga``). When in doubt this leaves a word alone.
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


def _words(text: str) -> Iterator[str]:
    for raw in _WORD.findall(fold(text)):
        if raw[0].isdigit():
            yield canonical_number(raw)
        elif len(raw) > 1 and raw not in STOPWORDS:
            yield fold_plural(raw)


def content_words(text: str) -> list[str]:
    """The words of ``text`` that carry meaning: normalised, stopwords removed, in order.

    Identifiers are *not* recognised here; this is the view the lexical embedder uses.
    """
    return list(_words(text))


def analyze_query(text: str) -> QueryTerms:
    """Split a query into canonical identifiers and content words, each once, in order."""
    identifiers: dict[str, None] = {}
    words: dict[str, None] = {}
    cursor = 0
    for identifier, term in _identifier_terms(text):
        words.update(dict.fromkeys(_words(text[cursor : identifier.start])))
        identifiers[term] = None
        digits = _identifier_digits(identifier.kind, term)
        if digits:
            words[digits] = None
        cursor = identifier.end
    words.update(dict.fromkeys(_words(text[cursor:])))
    return QueryTerms(tuple(identifiers), tuple(w for w in words if w not in identifiers))


def index_terms(text: str) -> list[str]:
    """The distinct terms under which a chunk is indexed, sorted for a stable index row."""
    query = analyze_query(text)
    return sorted(set(query.all_terms))
