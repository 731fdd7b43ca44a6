"""Rank full-text candidates the same way on every backend.

Each backend answers one primitive with its native index (FTS5 ``MATCH`` in SQLite, a GIN
``tsvector @@ tsquery`` in Postgres): *which chunks contain this term*. Ranking is done here,
in one pure function, so both backends rank identically by construction; SQLite's ``bm25()``
and Postgres' ``ts_rank_cd`` disagree on ties and scales, which would make the parity between
the embedded store and production a matter of luck.

Terms are OR-ed: Postgres' ``plainto_tsquery`` ANDs every word, so an ordinary question
("why is invoice INV-... higher") finds nothing unless one chunk holds every word. Ranking with
OR keeps the leg useful; a separate, strict notion of a *hit* (:attr:`TextMatch.is_hit`) is
what earns a chunk immunity from pruning.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping
from dataclasses import dataclass

from assistant.retrieval.analysis import QueryTerms


@dataclass(frozen=True, slots=True)
class TextMatch:
    """A chunk that contains at least one query term, and which ones."""

    chunk_id: str
    score: float
    identifiers: tuple[str, ...]
    words: tuple[str, ...]
    all_words: bool

    @property
    def is_hit(self) -> bool:
        """Proof of relevance: a queried identifier is in the chunk, or every content word is.

        This is ``plainto_tsquery``'s conjunctive meaning, plus identifiers on their own:
        one partial word overlap ("factura") is a ranking signal, not proof.
        """
        return bool(self.identifiers) or self.all_words


BM25_K1 = 1.2
BM25_B = 0.75


@dataclass(frozen=True, slots=True)
class CorpusStats:
    """What BM25 needs about the whole store: chunk count and mean distinct terms per chunk."""

    chunks: int
    average_terms: float

    @classmethod
    def from_totals(cls, chunks: int, total_terms: int) -> CorpusStats:
        """Averaged here, in Python, so every backend gets the bit-identical float."""
        return cls(chunks, total_terms / chunks if chunks else 0.0)


Postings = Mapping[str, Mapping[str, int]]
"""term → {chunk id: number of distinct terms in that chunk}."""


def inverse_document_frequency(document_frequency: int, total: int) -> float:
    """BM25's idf, always positive: rare terms (identifiers) weigh most."""
    return math.log(1.0 + (total - document_frequency + 0.5) / (document_frequency + 0.5))


def term_weight(idf: float, chunk_terms: int, average_terms: float) -> float:
    """BM25 for a term present once: the index stores distinct terms, so tf is 1.

    The length normalisation still matters: "Zelle" in a three-line section about Zelle
    outranks "Zelle" mentioned once in a long list of payment tips.
    """
    relative_length = chunk_terms / average_terms if average_terms > 0 else 1.0
    return idf * (BM25_K1 + 1.0) / (1.0 + BM25_K1 * (1.0 - BM25_B + BM25_B * relative_length))


def rank_text_matches(
    query: QueryTerms, postings: Postings, stats: CorpusStats, *, limit: int | None = None
) -> list[TextMatch]:
    """Order chunks by matched identifiers, then by BM25 over the matched terms.

    Exact identifiers come first whatever the words say: they are the signal no embedding
    can score. Ties break on chunk id. Only the first ``limit`` are returned (all if None);
    scores are accumulated for every candidate, details are built only for those returned.
    """
    identifiers = set(query.identifiers)
    scores: dict[str, float] = {}
    identifier_counts: dict[str, int] = {}
    for term in query.all_terms:
        chunks = postings.get(term, {})
        idf = inverse_document_frequency(len(chunks), stats.chunks)
        weight_by_length: dict[int, float] = {}
        for chunk_id, chunk_terms in chunks.items():
            weight = weight_by_length.get(chunk_terms)
            if weight is None:
                weight = weight_by_length[chunk_terms] = term_weight(
                    idf, chunk_terms, stats.average_terms
                )
            scores[chunk_id] = scores.get(chunk_id, 0.0) + weight
            if term in identifiers:
                identifier_counts[chunk_id] = identifier_counts.get(chunk_id, 0) + 1
    rounded = {chunk_id: round(score, 9) for chunk_id, score in scores.items()}

    def order(chunk_id: str) -> tuple[int, float, str]:
        return (-identifier_counts.get(chunk_id, 0), -rounded[chunk_id], chunk_id)

    ranked = (
        sorted(rounded, key=order) if limit is None else heapq.nsmallest(limit, rounded, key=order)
    )
    return [_describe(chunk_id, rounded[chunk_id], query, postings) for chunk_id in ranked]


def _describe(chunk_id: str, score: float, query: QueryTerms, postings: Postings) -> TextMatch:
    found_words = tuple(w for w in query.words if chunk_id in postings.get(w, {}))
    return TextMatch(
        chunk_id=chunk_id,
        score=score,
        identifiers=tuple(i for i in query.identifiers if chunk_id in postings.get(i, {})),
        words=found_words,
        all_words=bool(query.words) and len(found_words) == len(query.words),
    )
