"""Metrics are computed correctly, and the shipped query set is consistent with the KB."""

from __future__ import annotations

from pathlib import Path

import pytest

from billing_toolkit.assistant.knowledge import EVAL_QUERIES
from billing_toolkit.assistant.retrieval import HybridRetriever, KnowledgeBaseError
from billing_toolkit.assistant.retrieval.evaluation import (
    LabelledQuery,
    Selector,
    evaluate,
    load_queries,
    recall_at_k,
    reciprocal_rank,
    resolve_expected,
)
from billing_toolkit.assistant.retrieval.records import Chunk


def test_recall_and_reciprocal_rank_by_hand() -> None:
    relevant = frozenset({"b", "d"})
    assert recall_at_k(["a", "b", "c"], relevant, 3) == 0.5
    assert recall_at_k(["a", "b", "c", "d"], relevant, 4) == 1.0
    assert reciprocal_rank(["a", "b"], relevant, 2) == 0.5
    assert reciprocal_rank(["a", "c", "b"], relevant, 2) == 0.0


def test_shipped_query_set_is_large_bilingual_and_resolves(shipped_chunks: list[Chunk]) -> None:
    queries = load_queries(EVAL_QUERIES)
    assert len(queries) >= 30
    assert {q.language for q in queries} == {"es", "en"}
    assert sum(q.kind == "identifier" for q in queries) >= 5
    for query in queries:
        assert resolve_expected(query, shipped_chunks)


def test_a_selector_matching_nothing_is_an_error(shipped_chunks: list[Chunk]) -> None:
    query = LabelledQuery("q", "x", "es", "policy", (Selector("es/nope.md"),))
    with pytest.raises(KnowledgeBaseError, match="no chunk matches"):
        resolve_expected(query, shipped_chunks)


def test_malformed_query_files_name_the_problem(tmp_path: Path) -> None:
    path = tmp_path / "q.yaml"
    path.write_text("queries:\n  - id: a\n    query: b\n", encoding="utf-8")
    with pytest.raises(KnowledgeBaseError, match="query #1 is malformed"):
        load_queries(path)


def test_identifier_queries_are_answered_first_after_pruning(kb: HybridRetriever) -> None:
    queries = [q for q in load_queries(EVAL_QUERIES) if q.kind == "identifier"]
    report = evaluate(kb, queries, k=6)
    scores = {s.mode: s for s in report.scores}
    assert scores["fused+pruned"].mrr == pytest.approx(1.0)
    assert scores["fts"].recall >= scores["vector"].recall


def test_fusion_beats_either_leg_and_pruning_saves_tokens(kb: HybridRetriever) -> None:
    report = evaluate(kb, load_queries(EVAL_QUERIES), k=6)
    scores = {s.mode: s for s in report.scores}
    assert scores["fused"].recall >= max(scores["fts"].recall, scores["vector"].recall)
    assert scores["fused+pruned"].recall <= scores["fused"].recall
    assert 0 < report.kept_tokens < report.fused_tokens
