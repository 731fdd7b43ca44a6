"""The inbox's sign-in state, shared by every replica: failed sign-ins and live sessions.

Two small tables on the conversation store's connection, so replicas behind one load
balancer count the same failures (a guesser gains nothing from being spread over them) and
know the same sessions (an agent who signs out on one is signed out on all):

- `sign_in_failures`: per throttle key (`address:…`, `account:…`), the failures and the time
  of the last one — the `FailureCounts` of `billing_toolkit.webconsole.throttle`;
- `console_sessions`: the `sid` of every signed-in inbox session and when it expires — the
  `SessionRegistry` of `billing_toolkit.webconsole.live_sessions`.

Times are Unix seconds: the failures' from the store's injected clock, the sessions' from
the clock their caller gives (the inbox gives the wall clock, as its cookies expire by it).
Sessions that ended are deleted when a new one opens, so the table holds the live ones.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any

from billing_toolkit.assistant.store.store_part import StorePart

_FAILURES = """
CREATE TABLE IF NOT EXISTS sign_in_failures (
    name TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    last_at DOUBLE PRECISION NOT NULL
)"""
_SESSIONS = """
CREATE TABLE IF NOT EXISTS console_sessions (
    sid TEXT PRIMARY KEY,
    expires_at DOUBLE PRECISION NOT NULL
)"""
_ADD_FAILURE = """
INSERT INTO sign_in_failures (name, failures, last_at) VALUES (?, 1, ?)
ON CONFLICT (name) DO UPDATE SET
    failures = CASE WHEN sign_in_failures.last_at < ? THEN 1
                    ELSE sign_in_failures.failures + 1 END,
    last_at = excluded.last_at
RETURNING failures"""
_OPEN = """
INSERT INTO console_sessions (sid, expires_at) VALUES (?, ?)
ON CONFLICT (sid) DO UPDATE SET expires_at = excluded.expires_at
RETURNING sid"""


class SqlSignIns(StorePart):
    """Failure counters and live sessions on the store's connection and lock."""

    def __init__(
        self, connection: Any, dialect: Any, lock: threading.RLock, now: Callable[[], datetime]
    ) -> None:
        super().__init__(connection, dialect, lock, now, (_FAILURES, _SESSIONS))

    def clock(self) -> float:
        """The store's clock in Unix seconds (what the throttle and the sessions count in)."""
        return self._now().timestamp()

    def _execute(self, statement: str, params: tuple[Any, ...]) -> None:
        with self._lock:
            self._connection.execute(self._dialect.sql(statement), params)

    # -- FailureCounts ---------------------------------------------------------------------

    def failures(self, key: str) -> tuple[int, float]:
        rows = self._rows("SELECT failures, last_at FROM sign_in_failures WHERE name = ?", (key,))
        return (int(rows[0][0]), float(rows[0][1])) if rows else (0, 0.0)

    def add_failure(self, key: str, now: float, forget_before: float) -> None:
        self._rows(_ADD_FAILURE, (key, now, forget_before))

    def forget(self, key: str) -> None:
        self._execute("DELETE FROM sign_in_failures WHERE name = ?", (key,))

    # -- SessionRegistry -------------------------------------------------------------------

    def open(self, sid: str, expires_at: float, max_age: float = 12 * 3600) -> None:
        """Record `sid` until `expires_at`, and forget the sessions that ended (expired
        before `expires_at - max_age`, the sign-in time on the caller's clock)."""
        self._execute("DELETE FROM console_sessions WHERE expires_at <= ?", (expires_at - max_age,))
        self._rows(_OPEN, (sid, expires_at))

    def is_open(self, sid: str, now: float) -> bool:
        rows = self._rows("SELECT expires_at FROM console_sessions WHERE sid = ?", (sid,))
        return bool(rows) and float(rows[0][0]) > now

    def close(self, sid: str) -> None:
        self._execute("DELETE FROM console_sessions WHERE sid = ?", (sid,))
