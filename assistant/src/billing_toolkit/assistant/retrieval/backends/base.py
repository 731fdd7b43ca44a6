"""The interface every store implements, and the few rules they share.

A store keeps chunks, their full-text terms and their vectors, and answers three primitive
questions with its native indexes: which chunks contain a term, which vectors are nearest to
a query vector, and what a given chunk's cosine is. Chunks are named by integer keys in
postings (cheap to score in bulk) and by chunk id everywhere else. Everything above that (ranking, fusion,
pruning) lives in pure functions, so every backend returns the same ranking for the same
corpus and query.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Protocol

from billing_toolkit.assistant.retrieval.analysis import ANALYZER_VERSION
from billing_toolkit.assistant.retrieval.embedders.base import Vectors
from billing_toolkit.assistant.retrieval.records import Chunk
from billing_toolkit.assistant.retrieval.text_ranking import CorpusStats, Keys, TermPostings

SCORE_DECIMALS = 6
"""Cosines are rounded before they are compared: numpy and pgvector sum float32 products in
different orders, and the last bits must not reorder two chunks between backends."""


def rounded(score: float) -> float:
    return round(float(score), SCORE_DECIMALS)


def store_metadata(embedder_identity: str, dimension: int) -> list[tuple[str, str]]:
    """What a store records when it is reset: whose vectors it holds, their size, and which
    analyzer version produced its terms."""
    return [
        ("embedder", embedder_identity),
        ("dimension", str(dimension)),
        ("analyzer", ANALYZER_VERSION),
    ]


def current_embedder(metadata: Mapping[str, str]) -> str | None:
    """The embedder a store's metadata names, or None when its terms came from another
    analyzer version: such a store reads as built by an older version, so searching it asks
    for re-ingestion and the next ingestion rebuilds it instead of mixing two term sets."""
    return metadata.get("embedder") if metadata.get("analyzer") == ANALYZER_VERSION else None


def nearest_key(item: tuple[str, float]) -> tuple[float, str]:
    """Best cosine first, ties on chunk id."""
    return (-item[1], item[0])


class ChunkStore(Protocol):
    def embedder_identity(self) -> str | None:
        """The identity of the embedder the stored vectors came from; None when empty/new."""
        ...

    def reset(self, embedder_identity: str, dimension: int) -> None:
        """Drop every chunk and start over for vectors of ``dimension`` from that embedder."""
        ...

    def chunk_ids(self) -> set[str]: ...

    def count(self) -> int: ...

    def corpus_stats(self) -> CorpusStats: ...

    def add(self, chunks: Sequence[Chunk], vectors: Vectors) -> None:
        """Store ``chunks`` (row i of ``vectors`` is chunk i's vector) and index their terms."""
        ...

    def remove(self, chunk_ids: Collection[str]) -> None: ...

    def build_indexes(self) -> None:
        """Build what is cheaper to build once after a bulk load than to keep up row by row;
        a no-op when it exists. Called at the end of every ingestion."""
        ...

    def postings(self, terms: Sequence[str]) -> dict[str, TermPostings]:
        """For each term found, the chunks indexed under it (exact term equality) as keys,
        each with its number of distinct words (BM25's document length)."""
        ...

    def chunk_ids_of(self, keys: Keys) -> list[str]:
        """The chunk ids of keys :meth:`postings` returned, in the same order."""
        ...

    def nearest(self, vector: Vectors, limit: int) -> list[tuple[str, float]]:
        """Up to ``limit`` ``(chunk_id, cosine)`` pairs, best first, ties on chunk id."""
        ...

    def similarities(self, vector: Vectors, chunk_ids: Collection[str]) -> dict[str, float]:
        """The cosine of each named chunk to ``vector``."""
        ...

    def fetch(self, chunk_ids: Collection[str]) -> dict[str, Chunk]: ...

    def close(self) -> None: ...
