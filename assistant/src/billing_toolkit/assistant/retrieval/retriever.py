"""The hybrid retriever: query → full-text and vector legs → RRF → prune → chunks.

:meth:`HybridRetriever.explain` runs the whole pipeline and keeps every intermediate result
(each leg's ranking, fused scores, the prune decision and its reason); :meth:`search` returns
only what survives pruning. The CLI's ``--explain`` and the evaluation read the explanation,
so what they show is exactly what the assistant gets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self

import numpy as np

from billing_toolkit.assistant.retrieval.analysis import QueryTerms, analyze_query
from billing_toolkit.assistant.retrieval.backends.base import ChunkStore
from billing_toolkit.assistant.retrieval.embedders.base import Embedder
from billing_toolkit.assistant.retrieval.errors import EmbedderMismatchError, QueryError, StoreError
from billing_toolkit.assistant.retrieval.fusion import DEFAULT_RRF_K, reciprocal_rank_fusion
from billing_toolkit.assistant.retrieval.records import RetrievedChunk
from billing_toolkit.assistant.retrieval.relevance import (
    DEFAULT_MARGIN,
    DEFAULT_MIN_CHUNKS,
    PruneDecision,
    decide,
)
from billing_toolkit.assistant.retrieval.text_ranking import TextMatch, rank_text_matches

DEFAULT_TOP_K = 6
DEFAULT_CANDIDATES = 50
"""How deep each leg looks before fusion. Deeper than ``top_k`` so that a chunk ranked
modestly by both legs can still out-fuse one ranked well by only one."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A fused chunk within ``top_k``, whether kept or pruned, and why."""

    chunk: RetrievedChunk
    text_match: TextMatch | None
    decision: PruneDecision


@dataclass(frozen=True, slots=True)
class SearchExplanation:
    query: str
    terms: QueryTerms
    text_ranking: tuple[str, ...]
    vector_ranking: tuple[str, ...]
    candidates: tuple[Candidate, ...]
    best_score: float
    cutoff: float

    @property
    def fused(self) -> list[RetrievedChunk]:
        """The top_k fused chunks before pruning."""
        return [c.chunk for c in self.candidates]

    @property
    def kept(self) -> list[RetrievedChunk]:
        """What the assistant receives: the fused chunks that survived pruning, in order."""
        return [c.chunk for c in self.candidates if c.decision.kept]


class HybridRetriever:
    """Searches one store with one embedder. Thread-safe as far as its store is."""

    def __init__(
        self,
        store: ChunkStore,
        embedder: Embedder,
        *,
        candidates: int = DEFAULT_CANDIDATES,
        rrf_k: int = DEFAULT_RRF_K,
        margin: float = DEFAULT_MARGIN,
        min_chunks: int = DEFAULT_MIN_CHUNKS,
    ) -> None:
        stored = store.embedder_identity()
        if stored is None and store.count() > 0:
            raise StoreError(
                "this knowledge base was built by an older version of the store; re-ingest it"
            )
        if stored is not None and stored != embedder.identity and store.count() > 0:
            raise EmbedderMismatchError(
                f"this knowledge base was embedded with {stored!r} but is being searched with "
                f"{embedder.identity!r}; re-ingest it with the same embedder"
            )
        if candidates < 1:
            raise QueryError(f"candidates must be at least 1, got {candidates}")
        self.store = store
        self.embedder = embedder
        self._candidates = candidates
        self._rrf_k = rrf_k
        self._margin = margin
        self._min_chunks = min_chunks

    def search(
        self,
        query: str,
        top_k: int = DEFAULT_TOP_K,
        *,
        margin: float | None = None,
        min_chunks: int | None = None,
    ) -> list[RetrievedChunk]:
        """The chunks to hand to generation for ``query``, best first, pruned."""
        return self.explain(query, top_k, margin=margin, min_chunks=min_chunks).kept

    def explain(
        self,
        query: str,
        top_k: int = DEFAULT_TOP_K,
        *,
        margin: float | None = None,
        min_chunks: int | None = None,
    ) -> SearchExplanation:
        """Run the pipeline and keep every intermediate result."""
        if not query.strip():
            raise QueryError("the query is empty")
        if top_k < 1:
            raise QueryError(f"top_k must be at least 1, got {top_k}")
        terms = analyze_query(query)
        text_matches = self._text_leg(terms)
        vector = self.embedder.embed([query])[0]
        vector_hits = self.store.nearest(vector, self._candidates)
        text_ranking = tuple(m.chunk_id for m in text_matches)
        vector_ranking = tuple(chunk_id for chunk_id, _ in vector_hits)
        fused = reciprocal_rank_fusion([text_ranking, vector_ranking], k=self._rrf_k)[:top_k]
        chunks = self._materialise(fused, text_matches, vector_hits, vector)
        outcome = decide(
            chunks,
            margin=self._margin if margin is None else margin,
            min_chunks=self._min_chunks if min_chunks is None else min_chunks,
        )
        by_id = {m.chunk_id: m for m in text_matches}
        return SearchExplanation(
            query=query,
            terms=terms,
            text_ranking=text_ranking,
            vector_ranking=vector_ranking,
            candidates=tuple(
                Candidate(chunk, by_id.get(chunk.chunk_id), decision)
                for chunk, decision in zip(chunks, outcome.decisions, strict=True)
            ),
            best_score=outcome.best_score,
            cutoff=outcome.cutoff,
        )

    def _text_leg(self, terms: QueryTerms) -> list[TextMatch]:
        if not terms:
            return []
        postings = self.store.postings(terms.all_terms)
        return rank_text_matches(
            terms,
            postings,
            self.store.corpus_stats(),
            self.store.chunk_ids_of,
            limit=self._candidates,
        )

    def _materialise(
        self,
        fused: list[tuple[str, float]],
        text_matches: list[TextMatch],
        vector_hits: list[tuple[str, float]],
        vector: np.ndarray,
    ) -> list[RetrievedChunk]:
        """Turn fused ids into chunks carrying their cosine, text hit flag and leg ranks."""
        ids = [chunk_id for chunk_id, _ in fused]
        scores = dict(vector_hits)
        missing = [chunk_id for chunk_id in ids if chunk_id not in scores]
        if missing:
            scores.update(self.store.similarities(vector, missing))
        stored = self.store.fetch(ids)
        hits = {m.chunk_id for m in text_matches if m.is_hit}
        text_rank = {m.chunk_id: rank for rank, m in enumerate(text_matches, start=1)}
        vector_rank = {chunk_id: rank for rank, (chunk_id, _) in enumerate(vector_hits, start=1)}
        return [
            RetrievedChunk(
                chunk_id=chunk_id,
                text=stored[chunk_id].text,
                document=stored[chunk_id].document,
                heading_path=stored[chunk_id].heading_path,
                language=stored[chunk_id].language,
                vector_score=scores.get(chunk_id, 0.0),
                matched_by_text=chunk_id in hits,
                fused_rank=rank,
                fused_score=fused_score,
                text_rank=text_rank.get(chunk_id),
                vector_rank=vector_rank.get(chunk_id),
            )
            for rank, (chunk_id, fused_score) in enumerate(fused, start=1)
        ]

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
