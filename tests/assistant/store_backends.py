"""Conversation stores for the assistant's and the channel's tests: empty, on a stepping clock,
in memory or on each backend the store runs on (`STORE_BACKENDS`).

Both are generators a fixture `yield from`s, so the store is closed when the fixture ends.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from billing_toolkit.assistant.store import SqlConversationStore, open_conversation_store
from tests.assistant.assistant_fakes import SteppingClock

STORE_BACKENDS = ["sqlite-memory", "sqlite-file", "postgresql"]


def stepping_store(dsn: str = "sqlite://") -> Iterator[SqlConversationStore]:
    """An empty store on `dsn` (in memory by default) whose clock steps on every read."""
    opened = open_conversation_store(dsn, now=SteppingClock())
    try:
        yield opened
    finally:
        opened.close()


def store_on(
    backend: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SqlConversationStore]:
    """`stepping_store` on one of `STORE_BACKENDS`; PostgreSQL is a brand-new database on the
    session's server (`pg_dsn`, started only when a test gets this far)."""
    if backend == "postgresql":
        dsn = str(request.getfixturevalue("pg_dsn"))
    elif backend == "sqlite-file":
        dsn = f"sqlite:///{tmp_path_factory.mktemp('store') / 'conversations.sqlite3'}"
    else:
        dsn = "sqlite://"
    return stepping_store(dsn)
