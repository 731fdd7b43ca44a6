"""Hybrid search over the shipped knowledge base in the embedded backend."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from billing_toolkit.assistant.retrieval import (
    EmbedderMismatchError,
    HybridRetriever,
    QueryError,
    StoreError,
    open_retriever,
)
from billing_toolkit.assistant.retrieval.embedders import HashingEmbedder, MiniLMEmbedder
from billing_toolkit.assistant.retrieval.ingest import ingest_folder


@pytest.mark.parametrize(
    ("query", "heading"),
    [
        ("INV-2026-000123", "Ejemplo: factura INV-2026-000123"),
        ("¿qué significa la factura INV-2026-000123?", "Ejemplo: factura INV-2026-000123"),
        ("J-12345678-9", "Datos fiscales de FibraNet"),
        ("mi cédula es V-1.234.567", "Cómo te identificamos"),
    ],
)
def test_identifiers_are_found_by_their_exact_text(
    kb: HybridRetriever, query: str, heading: str
) -> None:
    results = kb.search(query)
    headings = [c.heading_path[-1] for c in results if c.matched_by_text]
    assert heading in headings


def test_an_identifier_that_is_in_no_document_matches_nothing_by_text(kb: HybridRetriever) -> None:
    """INV-2026-004218 differs from the documented example by two swapped digits."""
    explanation = kb.explain("INV-2026-004218")
    assert explanation.text_ranking == ()
    assert not any(c.matched_by_text for c in explanation.fused)


def test_a_full_text_hit_survives_pruning_despite_a_low_cosine(kb: HybridRetriever) -> None:
    explanation = kb.explain("J-12345678-9", top_k=6)
    hits = [c for c in explanation.candidates if c.chunk.matched_by_text]
    assert hits and all(c.decision.kept for c in hits)
    assert any(c.chunk.vector_score < explanation.cutoff for c in hits)


def test_every_result_carries_its_evidence(kb: HybridRetriever) -> None:
    results = kb.search("what is the late fee?")
    assert results
    for chunk in results:
        assert chunk.chunk_id.startswith(f"{chunk.document}#")
        assert chunk.language in {"es", "en"} and chunk.heading_path and chunk.text
        assert -1.0 <= chunk.vector_score <= 1.0
        assert chunk.fused_rank >= 1 and chunk.fused_score > 0
    ranks = [c.fused_rank for c in results]
    assert ranks == sorted(ranks)
    assert "How much the late fee is" in [c.heading_path[-1] for c in results]


def test_pruning_drops_filler_but_keeps_min_chunks(kb: HybridRetriever) -> None:
    explanation = kb.explain("¿cuánto cuesta la reconexión?", top_k=6)
    assert len(explanation.fused) == 6
    assert 2 <= len(explanation.kept) < 6
    assert explanation.kept[0].heading_path[-1] == "Cargo por reconexión"


def test_identical_runs_give_identical_results(kb: HybridRetriever) -> None:
    with open_retriever() as other:
        for query in ("¿cómo pago?", "zelle", "plan change", "J-12345678-9"):
            assert kb.search(query) == other.search(query)


def test_minilm_connects_a_question_to_a_differently_worded_answer(minilm: MiniLMEmbedder) -> None:
    with open_retriever(embedder=minilm) as retriever:
        vector_top = retriever.explain(
            "my connection was switched off for not paying"
        ).vector_ranking
    assert any("suspension-and-reconnection" in chunk_id for chunk_id in vector_top[:3])


def test_searching_with_another_embedder_is_refused(kb: HybridRetriever) -> None:
    with pytest.raises(EmbedderMismatchError, match="re-ingest"):
        HybridRetriever(kb.store, HashingEmbedder(dimension=256))


@pytest.mark.parametrize(("query", "top_k"), [("   ", 6), ("pago", 0)])
def test_bad_queries_are_rejected(kb: HybridRetriever, query: str, top_k: int) -> None:
    with pytest.raises(QueryError):
        kb.search(query, top_k)


def test_a_file_store_is_reused_without_re_embedding(tmp_path) -> None:  # type: ignore[no-untyped-def]
    dsn = f"sqlite:///{tmp_path}/kb.sqlite3"
    with open_retriever(dsn) as first:
        expected = first.search("zelle")
    with open_retriever(dsn, knowledge=None) as reopened:
        assert reopened.store.count() > 0
        assert reopened.search("zelle") == expected


def test_a_file_store_indexed_by_another_analyzer_is_rebuilt(
    tmp_path: Path, write_docs: Callable[[dict[str, str]], Path]
) -> None:
    """Terms from an older analyzer would miss what a new query asks for: a cache file
    written before stemming (analyzer 3) holds "reconectar" only, never the stem "reconecten"
    meets. Re-opening it with the knowledge folder rebuilds it under the new terms."""
    folder = write_docs(
        {"es/a.md": "# A\n\n## Cómo reconectar\n\nPaga el total. RIF J\u201312345678\u20139.\n"}
    )
    dsn = f"sqlite:///{tmp_path}/kb.sqlite3"
    open_retriever(dsn, knowledge=folder).close()
    with sqlite3.connect(tmp_path / "kb.sqlite3") as db:
        db.execute("UPDATE kb_meta SET value = '3' WHERE key = 'analyzer'")
        db.execute("UPDATE kb_terms SET terms = 'reconectar paga total rif j-12345678-9'")
    with pytest.raises(StoreError, match="re-ingest"):
        open_retriever(dsn, knowledge=None)
    with open_retriever(dsn, knowledge=folder) as rebuilt:
        for question in ("J-12345678-9", "para que me reconecten"):
            [found] = rebuilt.search(question)
            assert found.matched_by_text, question


def test_a_search_sees_what_was_written_after_the_previous_search(
    write_docs,  # type: ignore[no-untyped-def]
) -> None:
    """The embedded store answers from an in-memory snapshot; a write must replace it."""
    docs = {"es/a.md": "# Pagos\n\n## Zelle\n\nSolo en dólares.\n"}
    with open_retriever(knowledge=write_docs(docs)) as retriever:
        assert not any("Pago móvil" in c.heading_path for c in retriever.search("pago móvil"))
        docs["es/b.md"] = "# Pagos\n\n## Pago móvil\n\nDesde cualquier banco.\n"
        ingest_folder(retriever.store, write_docs(docs), retriever.embedder)
        found = retriever.search("pago móvil")
    assert found[0].heading_path[-1] == "Pago móvil" and found[0].matched_by_text
