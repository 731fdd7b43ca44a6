"""Fixtures for the assistant tests; the fakes themselves live in `assistant_fakes.py`."""

from __future__ import annotations

import shutil
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from assistant_fakes import (
    TENANT,
    FakeCapabilities,
    FakeRetriever,
    PipelineFactory,
    SteppingClock,
)

from assistant.pipeline import AssistantPipeline, PipelineSettings
from assistant.store import SqlConversationStore, open_conversation_store


@pytest.fixture
def capabilities() -> FakeCapabilities:
    return FakeCapabilities()


@pytest.fixture
def retriever() -> FakeRetriever:
    return FakeRetriever()


@pytest.fixture
def store() -> Iterator[SqlConversationStore]:
    opened = open_conversation_store(now=SteppingClock())
    yield opened
    opened.close()


@pytest.fixture
def make_pipeline(capabilities: FakeCapabilities, retriever: FakeRetriever,
                  store: SqlConversationStore) -> PipelineFactory:
    def make(**overrides: Any) -> AssistantPipeline:
        options: dict[str, Any] = {"tenant": TENANT, "capabilities": capabilities,
                                   "store": store, "retriever": retriever,
                                   "settings": PipelineSettings()}
        options.update(overrides)
        return AssistantPipeline(**options)
    return make


@pytest.fixture
def pipeline(make_pipeline: PipelineFactory) -> AssistantPipeline:
    return make_pipeline()


@pytest.fixture(scope="session")
def postgres_dsn() -> Iterator[str]:
    """A throw-away PostgreSQL 16 started by the `pgserver` package, once per session.

    Its data directory is a fresh folder of its own under the system temp dir rather than
    pytest's (whose parents are private to root, and which a concurrent pytest run may prune).
    """
    with warnings.catch_warnings():  # platformdirs warns that XDG_RUNTIME_DIR is unset
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR")
        import pgserver

    data = Path(tempfile.mkdtemp(prefix="assistant-pg-"))
    data.chmod(0o777)  # pgserver runs postgres as an unprivileged user when we are root
    server = pgserver.get_server(data, cleanup_mode="delete")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()
        shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(params=["sqlite-memory", "sqlite-file", "postgresql"])
def any_store(request: pytest.FixtureRequest,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[SqlConversationStore]:
    """The conversation store on each backend, empty, with a deterministic clock."""
    if request.param == "postgresql":
        import psycopg

        dsn = request.getfixturevalue("postgres_dsn")
        with psycopg.connect(dsn, autocommit=True) as connection:
            connection.execute("DROP TABLE IF EXISTS conversations, escalations")
    elif request.param == "sqlite-file":
        dsn = f"sqlite:///{tmp_path_factory.mktemp('store') / 'conversations.sqlite3'}"
    else:
        dsn = "sqlite://:memory:"
    opened = open_conversation_store(dsn, now=SteppingClock())
    yield opened
    opened.close()
