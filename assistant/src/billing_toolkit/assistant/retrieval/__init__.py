"""Knowledge base and hybrid retrieval for the billing assistant.

The one entry point the assistant pipeline needs::

    from billing_toolkit.assistant.retrieval import open_retriever

    retriever = open_retriever()              # shipped FibraNet KB, embedded SQLite in memory
    chunks = retriever.search("¿cómo pago?", top_k=6)
    for chunk in chunks:                      # RetrievedChunk
        chunk.chunk_id, chunk.text, chunk.vector_score, chunk.matched_by_text, chunk.fused_rank

``open_retriever(dsn, embedder=..., knowledge=...)``:

- ``dsn`` — ``sqlite://`` (memory, default), ``sqlite:///kb.sqlite3`` (a cache file: re-opening
  it re-embeds nothing that is unchanged) or ``postgresql://user@host:5432/db`` (pgvector).
- ``embedder`` — ``"hashing"`` (default; lexical character n-grams, no model) or ``"minilm"``
  (all-MiniLM-L6-v2, the ``embeddings`` extra), or any :class:`Embedder`.
- ``knowledge`` — the folder to sync into the store first (default: the shipped KB); pass
  ``None`` to search a store as it is, for instance one filled by ``billing-assistant kb ingest``.

A search runs a full-text leg (identifiers kept whole: ``INV-2026-004281``, ``J-12345678-9``,
``V-12.345.678``) and a cosine leg, fuses them with Reciprocal Rank Fusion (k=60, ties on
chunk id) and prunes chunks far below this turn's best cosine unless full-text proved them
relevant. :meth:`HybridRetriever.explain` shows each step.
"""

from __future__ import annotations

from pathlib import Path

from billing_toolkit.assistant.knowledge import KNOWLEDGE_DIR
from billing_toolkit.assistant.retrieval.backends import ChunkStore, open_store
from billing_toolkit.assistant.retrieval.dsn import DEFAULT_DSN
from billing_toolkit.assistant.retrieval.embedders import DEFAULT_EMBEDDER, Embedder, get_embedder
from billing_toolkit.assistant.retrieval.errors import (
    DSNError,
    EmbedderError,
    EmbedderMismatchError,
    KnowledgeBaseError,
    QueryError,
    RetrievalError,
    StoreError,
)
from billing_toolkit.assistant.retrieval.ingest import IngestReport, ProgressCallback, ingest_folder
from billing_toolkit.assistant.retrieval.records import Chunk, RetrievedChunk
from billing_toolkit.assistant.retrieval.retriever import HybridRetriever, SearchExplanation

SHIPPED_KNOWLEDGE: Path = KNOWLEDGE_DIR


def open_retriever(
    dsn: str = DEFAULT_DSN,
    *,
    embedder: str | Embedder = DEFAULT_EMBEDDER,
    knowledge: Path | None = SHIPPED_KNOWLEDGE,
    progress: ProgressCallback | None = None,
) -> HybridRetriever:
    """Open the store at ``dsn``, sync ``knowledge`` into it, and return a retriever.

    Syncing is incremental (only new or changed chunks are embedded), so calling this at
    every start-up on a file or Postgres store is cheap after the first time.
    """
    model = get_embedder(embedder) if isinstance(embedder, str) else embedder
    store = open_store(dsn)
    try:
        if knowledge is not None:
            ingest_folder(store, knowledge, model, progress=progress)
        return HybridRetriever(store, model)
    except BaseException:
        store.close()
        raise


__all__ = [
    "SHIPPED_KNOWLEDGE",
    "Chunk",
    "ChunkStore",
    "DSNError",
    "EmbedderError",
    "EmbedderMismatchError",
    "HybridRetriever",
    "IngestReport",
    "KnowledgeBaseError",
    "QueryError",
    "RetrievalError",
    "RetrievedChunk",
    "SearchExplanation",
    "StoreError",
    "get_embedder",
    "ingest_folder",
    "open_retriever",
    "open_store",
]
