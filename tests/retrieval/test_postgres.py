"""The PostgreSQL backend, for real: Postgres 16 + pgvector started by the tests (pgserver)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest

from billing_toolkit.assistant.retrieval import StoreError, open_retriever
from billing_toolkit.assistant.retrieval.backends import PostgresStore, open_store
from billing_toolkit.assistant.retrieval.embedders import HashingEmbedder, MiniLMEmbedder
from billing_toolkit.assistant.retrieval.ingest import ingest_folder

PARITY_QUERIES = [
    "¿cómo pago?",
    "what is the late fee?",
    "¿cuándo me cortan el servicio?",
    "INV-2026-000123",
    "J-12345678-9",
    "mi cédula es V-1.234.567",
    "Zelle en bolívares",
    "plan change proration",
    "Bs. 250,00",
]


def test_pgvector_is_really_there(pg_dsn: str) -> None:
    store = open_store(pg_dsn)
    assert isinstance(store, PostgresStore)
    with psycopg.connect(pg_dsn) as db:
        version = db.execute(
            "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
        ).fetchone()
    assert version is not None
    store.close()


def test_the_default_parser_would_split_identifiers(pg_dsn: str) -> None:
    """Why the backend does not use to_tsvector/plainto_tsquery on raw text."""
    with psycopg.connect(pg_dsn) as db:
        row = db.execute(
            "SELECT tsvector_to_array(to_tsvector('simple', 'INV-2026-000123'))"
        ).fetchone()
    assert row is not None
    (lexemes,) = row
    assert "inv-2026-000123" not in lexemes


@pytest.mark.parametrize(
    ("query", "heading"),
    [
        ("INV-2026-000123", "Example: invoice INV-2026-000123"),
        ("why is invoice INV-2026-000123 higher", "Example: invoice INV-2026-000123"),
        ("J-12345678-9", "FibraNet's tax details"),
        ("V-1.234.567", "How we identify you"),
    ],
)
def test_identifiers_are_found_by_their_exact_text(pg_dsn: str, query: str, heading: str) -> None:
    with open_retriever(pg_dsn) as retriever:
        hits = [c.heading_path[-1] for c in retriever.search(query) if c.matched_by_text]
    assert heading in hits


def test_both_backends_return_the_same_ranking(pg_dsn: str) -> None:
    with open_retriever(pg_dsn) as postgres, open_retriever() as sqlite:
        for query in PARITY_QUERIES:
            pg_fused, lite_fused = postgres.explain(query).fused, sqlite.explain(query).fused
            assert [c.chunk_id for c in pg_fused] == [c.chunk_id for c in lite_fused], query
            assert [c.matched_by_text for c in pg_fused] == [c.matched_by_text for c in lite_fused]
            assert [c.vector_score for c in pg_fused] == pytest.approx(
                [c.vector_score for c in lite_fused], abs=1e-5
            )
            assert postgres.search(query) and [c.chunk_id for c in postgres.search(query)] == [
                c.chunk_id for c in sqlite.search(query)
            ]


def test_parity_holds_with_the_real_model(pg_dsn: str, minilm: MiniLMEmbedder) -> None:
    with (
        open_retriever(pg_dsn, embedder=minilm) as postgres,
        open_retriever(embedder=minilm) as sqlite,
    ):
        for query in PARITY_QUERIES[:4]:
            assert [c.chunk_id for c in postgres.search(query)] == [
                c.chunk_id for c in sqlite.search(query)
            ]


def test_re_ingest_touches_only_changes(
    pg_dsn: str, write_docs: Callable[[dict[str, str]], Path]
) -> None:
    docs = {"es/a.md": "# A\n\n## Uno\n\nPrimero.\n\n## Dos\n\nSegundo.\n"}
    store = open_store(pg_dsn)
    ingest_folder(store, write_docs(docs), HashingEmbedder())
    report = ingest_folder(
        store,
        write_docs({"es/a.md": docs["es/a.md"].replace("Segundo.", "Otro.")}),
        HashingEmbedder(),
    )
    assert (report.added, report.removed, report.unchanged) == (1, 1, 1)
    assert store.count() == 2
    store.close()


def test_unreachable_server_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=r"cannot connect to postgresql://kb:\*\*\*@"):
        open_store(f"postgresql://kb:secret@/kb?host={tmp_path}&connect_timeout=2")


def test_ingestion_builds_the_hnsw_index_the_vector_leg_uses(pg_dsn: str) -> None:
    with open_retriever(pg_dsn):
        pass
    with psycopg.connect(pg_dsn) as db:
        row = db.execute(
            "SELECT am.amname FROM pg_class c JOIN pg_am am ON am.oid = c.relam"
            " WHERE c.relname = 'kb_chunks_embedding'"
        ).fetchone()
        assert row is not None
        (method,) = row
        db.execute("SET enable_seqscan = off")
        plan = " ".join(
            row[0]
            for row in db.execute(
                "EXPLAIN SELECT chunk_id FROM kb_chunks ORDER BY embedding <=>"
                " (SELECT embedding FROM kb_chunks LIMIT 1) LIMIT 60"
            )
        )
    assert method == "hnsw" and "kb_chunks_embedding" in plan


@pytest.mark.parametrize("version", ["schema", "analyzer"])
def test_a_store_of_an_older_schema_or_analyzer_is_rebuilt(
    pg_dsn: str, write_docs: Callable[[dict[str, str]], Path], version: str
) -> None:
    folder = write_docs({"es/a.md": "# A\n\n## Uno\n\nPrimero.\n"})
    store = open_store(pg_dsn)
    ingest_folder(store, folder, HashingEmbedder())
    with psycopg.connect(pg_dsn, autocommit=True) as db:
        db.execute("UPDATE kb_meta SET value = '1' WHERE key = %s", (version,))
    report = ingest_folder(store, folder, HashingEmbedder())
    assert (report.added, report.unchanged) == (1, 0)
    store.close()


def test_searching_a_store_of_an_older_schema_asks_for_re_ingestion(pg_dsn: str) -> None:
    with open_retriever(pg_dsn):
        pass
    with psycopg.connect(pg_dsn, autocommit=True) as db:
        db.execute("UPDATE kb_meta SET value = '1' WHERE key = 'schema'")
    with pytest.raises(StoreError, match="re-ingest"):
        open_retriever(pg_dsn, knowledge=None)
