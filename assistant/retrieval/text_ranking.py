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

import math
from collections.abc import Collection, Mapping
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


def inverse_document_frequency(document_frequency: int, total: int) -> float:
    """BM25's idf, always positive: rare terms (identifiers) weigh most."""
    return math.log(1.0 + (total - document_frequency + 0.5) / (document_frequency + 0.5))


def rank_text_matches(
    query: QueryTerms, postings: Mapping[str, Collection[str]], total_chunks: int
) -> list[TextMatch]:
    """Order chunks by matched identifiers, then by the summed idf of matched terms.

    Exact identifiers come first whatever the words say: they are the signal no embedding
    can score. Ties break on chunk id.
    """
    idf = {
        term: inverse_document_frequency(len(postings.get(term, ())), total_chunks)
        for term in query.all_terms
    }
    matched: dict[str, list[str]] = {}
    for term in query.all_terms:
        for chunk_id in postings.get(term, ()):
            matched.setdefault(chunk_id, []).append(term)
    identifiers = set(query.identifiers)
    matches = []
    for chunk_id, terms in matched.items():
        found_ids = tuple(t for t in terms if t in identifiers)
        found_words = tuple(t for t in terms if t not in identifiers)
        matches.append(
            TextMatch(
                chunk_id=chunk_id,
                score=round(sum(idf[t] for t in terms), 9),
                identifiers=found_ids,
                words=found_words,
                all_words=bool(query.words) and len(found_words) == len(query.words),
            )
        )
    matches.sort(key=lambda m: (-len(m.identifiers), -m.score, m.chunk_id))
    return matches
