"""Ingest a folder of Markdown documents into a store, touching only what changed.

Chunk ids are derived from the document path and the content, so comparing the ids a folder
produces now with the ids in the store tells exactly which chunks are new (embed and add
them), which are gone (remove them) and which are unchanged (leave them, and their vectors,
alone). Embedding is the expensive step; an edit to one paragraph re-embeds that paragraph.
A store mirrors one folder: chunks of documents removed from the folder are removed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from billing_toolkit.assistant.retrieval.backends.base import ChunkStore
from billing_toolkit.assistant.retrieval.chunking import DEFAULT_MAX_WORDS, chunk_markdown
from billing_toolkit.assistant.retrieval.embedders.base import Embedder
from billing_toolkit.assistant.retrieval.errors import KnowledgeBaseError
from billing_toolkit.assistant.retrieval.records import Chunk
from billing_toolkit.assistant.retrieval.vector_cache import cached_vectors

LANGUAGE_FOLDERS = frozenset({"es", "en"})
UNKNOWN_LANGUAGE = "und"
DEFAULT_BATCH_SIZE = 64


@dataclass(frozen=True, slots=True)
class IngestProgress:
    """One step of an ingestion, for a progress bar: ``stage`` is "chunking" or "embedding"."""

    stage: str
    done: int
    total: int


ProgressCallback = Callable[[IngestProgress], None]


@dataclass(frozen=True, slots=True)
class IngestReport:
    documents: int
    chunks: int
    added: int
    removed: int
    unchanged: int
    rebuilt: bool
    """True when the store held vectors of another embedder and was rebuilt from scratch."""


def language_of(document: str) -> str:
    """``es/pagos.md`` → ``es``: the first folder names the language; otherwise ``und``."""
    first = document.split("/", 1)[0]
    return first if first in LANGUAGE_FOLDERS and "/" in document else UNKNOWN_LANGUAGE


def read_folder(
    folder: Path, *, max_words: int = DEFAULT_MAX_WORDS, progress: ProgressCallback | None = None
) -> list[Chunk]:
    """Chunk every ``*.md`` under ``folder`` (sorted, so the order is stable).

    A missing folder, or one without a
    single Markdown file, is an error: ingesting it would silently empty the store.
    """
    if not folder.is_dir():
        raise KnowledgeBaseError(f"knowledge-base folder not found: {folder}")
    paths = sorted(p for p in folder.rglob("*.md") if p.is_file())
    if not paths:
        raise KnowledgeBaseError(f"no Markdown (*.md) documents under {folder}")
    chunks: list[Chunk] = []
    for done, path in enumerate(paths, start=1):
        document = path.relative_to(folder).as_posix()
        try:
            markdown = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise KnowledgeBaseError(f"cannot read {path}: {exc}") from None
        chunks.extend(
            chunk_markdown(document, markdown, language=language_of(document), max_words=max_words)
        )
        if progress:
            progress(IngestProgress("chunking", done, len(paths)))
    return chunks


def sync_chunks(
    store: ChunkStore,
    chunks: Sequence[Chunk],
    embedder: Embedder,
    *,
    progress: ProgressCallback | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
) -> IngestReport:
    """Make the store hold exactly ``chunks``, embedding only the ones it does not have — with a
    costly embedder through the vector cache, so a replica or a test process starting on an
    empty store reads the shipped knowledge base's vectors instead of computing them again."""
    rebuilt = store.embedder_identity() not in (None, embedder.identity) and store.count() > 0
    if store.embedder_identity() != embedder.identity:
        store.reset(embedder.identity, embedder.dimension)
    wanted = {chunk.chunk_id: chunk for chunk in chunks}
    present = store.chunk_ids()
    stale = present - wanted.keys()
    fresh = [chunk for chunk_id, chunk in wanted.items() if chunk_id not in present]
    if stale:
        store.remove(stale)
    for start in range(0, len(fresh), batch_size):
        batch = fresh[start : start + batch_size]
        texts = [chunk.searchable_text for chunk in batch]
        store.add(
            batch, cached_vectors(embedder, texts) if embedder.costly else embedder.embed(texts)
        )
        if progress:
            progress(IngestProgress("embedding", start + len(batch), len(fresh)))
    store.build_indexes()
    return IngestReport(
        documents=len({chunk.document for chunk in chunks}),
        chunks=len(wanted),
        added=len(fresh),
        removed=len(stale),
        unchanged=len(wanted) - len(fresh),
        rebuilt=rebuilt,
    )


def ingest_folder(
    store: ChunkStore,
    folder: Path,
    embedder: Embedder,
    *,
    progress: ProgressCallback | None = None,
    max_words: int = DEFAULT_MAX_WORDS,
) -> IngestReport:
    """Read, chunk and sync ``folder`` into ``store``."""
    chunks = read_folder(folder, max_words=max_words, progress=progress)
    return sync_chunks(store, chunks, embedder, progress=progress)
