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

Postings arrive as integer arrays and are scored with numpy: a common word can be in most of
the corpus, and a Python loop over its postings was the largest cost of a query at 10k chunks.
The ranking is still exact BM25 over every posting; nothing is sampled or cut before scoring.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from billing_toolkit.assistant.retrieval.analysis import QueryTerms

Keys = npt.NDArray[np.int64]
"""Chunk keys: the store's own integer handle for a chunk (SQLite rowid, Postgres row key)."""


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


@dataclass(frozen=True, slots=True)
class TermPostings:
    """The chunks indexed under one term: their keys and, position for position, their number
    of distinct words (BM25's document length, see ``analysis.IndexEntry``)."""

    keys: Keys
    lengths: Keys

    @classmethod
    def of(cls, keys: Sequence[int], lengths: Sequence[int]) -> TermPostings:
        return cls(np.asarray(keys, dtype=np.int64), np.asarray(lengths, dtype=np.int64))


NO_POSTINGS = TermPostings.of((), ())

Postings = Mapping[str, TermPostings]
"""term → the chunks holding it; a term absent from the mapping is in no chunk."""

ChunkIdLookup = Callable[[Keys], Sequence[str]]
"""Chunk keys → their chunk ids, in the same order (ties break on chunk id, not on key)."""

BM25_K1 = 1.2
BM25_B = 0.75
BM25_DECIMALS = 9
"""Scores are rounded before they are compared, so float noise never reorders two chunks."""


@dataclass(frozen=True, slots=True)
class CorpusStats:
    """What BM25 needs about the whole store: chunk count and mean distinct words per chunk."""

    chunks: int
    average_terms: float

    @classmethod
    def from_totals(cls, chunks: int, total_terms: int) -> CorpusStats:
        """Averaged here, in Python, so every backend gets the bit-identical float."""
        return cls(chunks, total_terms / chunks if chunks else 0.0)


def inverse_document_frequency(document_frequency: int, total: int) -> float:
    """BM25's idf, always positive: rare terms (identifiers) weigh most."""
    return math.log(1.0 + (total - document_frequency + 0.5) / (document_frequency + 0.5))


def term_weights(idf: float, chunk_terms: Keys, average_terms: float) -> npt.NDArray[np.float64]:
    """BM25 of one term in each chunk holding it: the index stores distinct terms, so tf is 1.

    The length normalisation still matters: "Zelle" in a three-line section about Zelle
    outranks "Zelle" mentioned once in a long list of payment tips.
    """
    relative_length = (
        chunk_terms / average_terms if average_terms > 0 else np.ones(len(chunk_terms))
    )
    return idf * (BM25_K1 + 1.0) / (1.0 + BM25_K1 * (1.0 - BM25_B + BM25_B * relative_length))


def rank_text_matches(
    query: QueryTerms,
    postings: Postings,
    stats: CorpusStats,
    chunk_ids_of: ChunkIdLookup,
    *,
    limit: int | None = None,
) -> list[TextMatch]:
    """Order chunks by matched identifiers, then by BM25 over the matched terms, then by id.

    Exact identifiers come first whatever the words say: they are the signal no embedding
    can score. Every posting is scored (in numpy, summed in query-term order so each backend
    gets the same floats); chunk ids are looked up only for the first ``limit`` (all if None)
    and for the chunks tied with the last of them, because the tie-break is on the id.
    """
    lists = [postings.get(term, NO_POSTINGS) for term in query.all_terms]
    sizes = [len(p.keys) for p in lists]
    if not sum(sizes):
        return []
    weights = np.concatenate(
        [
            term_weights(
                inverse_document_frequency(size, stats.chunks), p.lengths, stats.average_terms
            )
            for p, size in zip(lists, sizes, strict=True)
        ]
    )
    is_identifier = np.repeat([term in query.identifiers for term in query.all_terms], sizes)
    keys, inverse = np.unique(np.concatenate([p.keys for p in lists]), return_inverse=True)
    # Weighted, `bincount` sums floats; numpy's stubs type every `bincount` as integers, and
    # `astype(copy=False)` says what it is without copying.
    totals = np.bincount(inverse, weights=weights, minlength=len(keys)).astype(
        np.float64, copy=False
    )
    scores = np.round(totals, BM25_DECIMALS)
    identifier_counts = np.bincount(inverse, weights=is_identifier, minlength=len(keys)).astype(
        np.float64, copy=False
    )
    selected = _best_with_ties(identifier_counts, scores, limit)
    ids = chunk_ids_of(keys[selected])
    ranked = sorted(
        zip(selected.tolist(), ids, strict=True),
        key=lambda item: (-identifier_counts[item[0]], -scores[item[0]], item[1]),
    )[:limit]
    chosen = keys[[position for position, _ in ranked]]
    present = {
        term: np.isin(chosen, p.keys) for term, p in zip(query.all_terms, lists, strict=True)
    }
    return [
        _describe(chunk_id, float(scores[position]), query, present, row)
        for row, (position, chunk_id) in enumerate(ranked)
    ]


def _best_with_ties(
    identifier_counts: npt.NDArray[np.float64], scores: npt.NDArray[np.float64], limit: int | None
) -> npt.NDArray[np.intp]:
    """Positions of the ``limit`` best by (identifiers, score), plus every chunk tied with the
    last of them: which of the tied ones make the cut is decided later, on chunk id."""
    if limit is None or limit >= len(scores):
        return np.arange(len(scores))
    last = np.lexsort((-scores, -identifier_counts))[limit - 1]
    better = identifier_counts > identifier_counts[last]
    tied = (identifier_counts == identifier_counts[last]) & (scores >= scores[last])
    return np.flatnonzero(better | tied)


def _describe(
    chunk_id: str,
    score: float,
    query: QueryTerms,
    present: Mapping[str, npt.NDArray[np.bool_]],
    row: int,
) -> TextMatch:
    found_words = tuple(w for w in query.words if present[w][row])
    return TextMatch(
        chunk_id=chunk_id,
        score=score,
        identifiers=tuple(i for i in query.identifiers if present[i][row]),
        words=found_words,
        all_words=bool(query.groups)
        and all(any(present[term][row] for term in group) for group in query.groups),
    )
