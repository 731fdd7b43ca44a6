"""Measure retrieval on a labelled query set: Recall@k and MRR per leg, fused, and pruned.

Four rankings are scored for every query, all from one :meth:`HybridRetriever.explain` run so
they describe exactly what the assistant gets: the full-text leg alone, the vector leg alone,
the RRF fusion (top k), and the fusion after pruning. Pruning can only lower recall; what it
buys is prompt tokens, reported alongside.

Tokens are approximated as ``ceil(characters / 4)``, the usual rule of thumb for BPE
tokenizers on Latin-script text; it is a ratio between two lists of the same chunks, so the
heuristic's bias largely cancels out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from billing_toolkit.assistant.retrieval.errors import KnowledgeBaseError
from billing_toolkit.assistant.retrieval.records import Chunk
from billing_toolkit.assistant.retrieval.retriever import HybridRetriever, SearchExplanation

MODES = ("fts", "vector", "fused", "fused+pruned")


@dataclass(frozen=True, slots=True)
class Selector:
    """Picks the chunks that answer a query: a document, and optionally its last heading
    and/or a phrase of its text."""

    document: str
    heading: str | None = None
    contains: str | None = None

    def matches(self, chunk: Chunk) -> bool:
        return (
            chunk.document == self.document
            and (self.heading is None or (chunk.heading_path[-1:] == (self.heading,)))
            and (self.contains is None or self.contains in chunk.text)
        )


@dataclass(frozen=True, slots=True)
class LabelledQuery:
    id: str
    query: str
    language: str
    kind: str
    expected: tuple[Selector, ...]


@dataclass(frozen=True, slots=True)
class ModeScore:
    mode: str
    recall: float
    mrr: float


@dataclass(frozen=True, slots=True)
class EvaluationReport:
    embedder: str
    k: int
    queries: int
    scores: tuple[ModeScore, ...]
    fused_tokens: int
    kept_tokens: int

    @property
    def tokens_saved(self) -> int:
        return self.fused_tokens - self.kept_tokens

    @property
    def tokens_saved_ratio(self) -> float:
        return self.tokens_saved / self.fused_tokens if self.fused_tokens else 0.0


def load_queries(path: Path) -> list[LabelledQuery]:
    """Read the YAML query set, rejecting malformed entries with the offending id."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise KnowledgeBaseError(f"cannot read the query set {path}: {exc}") from None
    entries = data.get("queries") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not entries:
        raise KnowledgeBaseError(f"{path}: expected a non-empty 'queries' list")
    queries = []
    for position, entry in enumerate(entries, start=1):
        try:
            queries.append(
                LabelledQuery(
                    id=str(entry["id"]),
                    query=str(entry["query"]),
                    language=str(entry["language"]),
                    kind=str(entry["kind"]),
                    expected=tuple(Selector(**selector) for selector in entry["expected"]),
                )
            )
        except (KeyError, TypeError) as exc:
            raise KnowledgeBaseError(f"{path}: query #{position} is malformed ({exc})") from None
    ids = [q.id for q in queries]
    if len(set(ids)) != len(ids):
        raise KnowledgeBaseError(f"{path}: query ids are not unique")
    return queries


def resolve_expected(query: LabelledQuery, chunks: Iterable[Chunk]) -> frozenset[str]:
    """The ids of the chunks a query expects; every selector must match at least one."""
    pool = list(chunks)
    relevant: set[str] = set()
    for selector in query.expected:
        found = {chunk.chunk_id for chunk in pool if selector.matches(chunk)}
        if not found:
            raise KnowledgeBaseError(f"query {query.id!r}: no chunk matches {selector}")
        relevant |= found
    return frozenset(relevant)


def recall_at_k(ranked: Sequence[str], relevant: frozenset[str], k: int) -> float:
    """Share of the relevant chunks found among the first ``k``."""
    return len(relevant.intersection(ranked[:k])) / len(relevant) if relevant else 0.0


def reciprocal_rank(ranked: Sequence[str], relevant: frozenset[str], k: int) -> float:
    """1/position of the first relevant chunk within the first ``k``; 0 when none is."""
    for position, chunk_id in enumerate(ranked[:k], start=1):
        if chunk_id in relevant:
            return 1.0 / position
    return 0.0


def approximate_tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


def mode_rankings(explanation: SearchExplanation) -> dict[str, list[str]]:
    return {
        "fts": list(explanation.text_ranking),
        "vector": list(explanation.vector_ranking),
        "fused": [chunk.chunk_id for chunk in explanation.fused],
        "fused+pruned": [chunk.chunk_id for chunk in explanation.kept],
    }


def evaluate(
    retriever: HybridRetriever, queries: Sequence[LabelledQuery], *, k: int = 6
) -> EvaluationReport:
    """Score every mode on ``queries`` with ``retriever`` (whose store holds the KB)."""
    store = retriever.store
    chunks = list(store.fetch(store.chunk_ids()).values())
    recall: dict[str, float] = dict.fromkeys(MODES, 0.0)
    mrr: dict[str, float] = dict.fromkeys(MODES, 0.0)
    fused_tokens = kept_tokens = 0
    for query in queries:
        relevant = resolve_expected(query, chunks)
        explanation = retriever.explain(query.query, top_k=k)
        for mode, ranked in mode_rankings(explanation).items():
            recall[mode] += recall_at_k(ranked, relevant, k)
            mrr[mode] += reciprocal_rank(ranked, relevant, k)
        fused_tokens += sum(approximate_tokens(c.text) for c in explanation.fused)
        kept_tokens += sum(approximate_tokens(c.text) for c in explanation.kept)
    count = len(queries)
    return EvaluationReport(
        embedder=retriever.embedder.identity,
        k=k,
        queries=count,
        scores=tuple(ModeScore(m, recall[m] / count, mrr[m] / count) for m in MODES),
        fused_tokens=fused_tokens,
        kept_tokens=kept_tokens,
    )
