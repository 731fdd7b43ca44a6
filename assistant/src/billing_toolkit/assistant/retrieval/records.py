"""The two shapes a chunk takes: as stored, and as returned by a search."""

from __future__ import annotations

from dataclasses import dataclass

from billing_toolkit.assistant.retrieval.kinds import ChunkKind, chunk_kind


@dataclass(frozen=True, slots=True)
class Chunk:
    """A piece of one knowledge-base document, the unit that is indexed and retrieved.

    ``chunk_id`` is derived from the document path and the content (see
    :func:`billing_toolkit.assistant.retrieval.chunking.chunk_id_for`), so an unchanged chunk
    keeps its id across re-ingestion and a changed one gets a new id: the id is what lets
    ingestion touch only what changed, and what the grounding verifier compares citations
    against.
    """

    chunk_id: str
    document: str
    heading_path: tuple[str, ...]
    language: str
    text: str

    @property
    def searchable_text(self) -> str:
        """Headings plus body: what is indexed and embedded.

        A paragraph under "Recargo por mora" rarely repeats the words "recargo" or "mora";
        its heading path carries them, so both legs see it.
        """
        return " > ".join(self.heading_path) + "\n" + self.text

    @property
    def kind(self) -> ChunkKind:
        """Policy, worked example or format sample, from the document's structure."""
        return chunk_kind(self.heading_path, self.text)


@dataclass(frozen=True, slots=True)
class RetrievedChunk:
    """A chunk returned by :meth:`HybridRetriever.search`, with the evidence of why.

    ``vector_score`` is the cosine similarity to the query (always computed, even for a
    chunk only the full-text leg found); ``matched_by_text`` says the full-text leg proved
    the chunk relevant (it holds a queried identifier or every content word);
    ``fused_rank`` is the 1-based position after Reciprocal Rank Fusion and before pruning,
    so gaps in the ranks of a result show what was pruned.
    """

    chunk_id: str
    text: str
    document: str
    heading_path: tuple[str, ...]
    language: str
    vector_score: float
    matched_by_text: bool
    fused_rank: int
    fused_score: float
    text_rank: int | None
    vector_rank: int | None

    @property
    def kind(self) -> ChunkKind:
        """Policy, worked example or format sample (see `retrieval/kinds.py`)."""
        return chunk_kind(self.heading_path, self.text)
