"""What every part of the conversation store shares: the one connection, its dialect, the
re-entrant lock held for each statement and transaction, and the injected clock."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any


class StorePart:
    """A part of the store (the message log, the coordination) on the store's connection.
    `schema` is created at once, under the dialect's schema lock."""

    def __init__(
        self,
        connection: Any,
        dialect: Any,
        lock: threading.RLock,
        now: Callable[[], datetime],
        schema: Sequence[str],
    ) -> None:
        self._connection = connection
        self._dialect = dialect
        self._lock = lock
        self._now = now
        with self._lock, dialect.schema(connection):
            for statement in schema:
                connection.execute(statement)

    def _rows(self, statement: str, params: tuple[Any, ...]) -> list[Any]:
        with self._lock:
            return list(self._connection.execute(self._dialect.sql(statement), params).fetchall())
