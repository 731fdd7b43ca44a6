"""Who may work on a conversation now: leases with an expiry, and a trace of the turns run.

Several service replicas share one PostgreSQL store; each message of a conversation must be
answered in arrival order, by one replica at a time. A replica works on a conversation only
while it holds the conversation's lease: one row per (tenant, phone) naming the holder and
when the lease ends. Taking it is one atomic compare-and-set,

    INSERT … ON CONFLICT (tenant, phone) DO UPDATE … WHERE expires_at <= now OR holder = me

which PostgreSQL runs under the row's lock (two replicas racing for it: one wins, the other
sees no row returned) and SQLite under its single writer. The holder renews the lease while
it works and deletes it when done; a replica that dies simply stops renewing, and after the
expiry any other replica takes the conversation over and finds what was left: a message
`processing` (run again, the attempt counted) or a reply `sending` (sent once more, marked
`resending`). Bias: a lease that expired is gone — a replica stalled longer than the lease may
repeat a reply, never run two turns of one conversation at the same moment on purpose.

Time is the store's injected clock, kept as epoch seconds (a number compares the same on
both backends). The turn trace (`turns`) records each turn's holder, start and end, so an
operator — and the multi-replica test — can see that turns of one conversation never overlap.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from billing_toolkit.assistant.store.store_part import StorePart

_LEASES = """
CREATE TABLE IF NOT EXISTS conversation_leases (
    tenant TEXT NOT NULL,
    phone TEXT NOT NULL,
    holder TEXT NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL,
    taken_over INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant, phone)
)"""
_TURNS = """
CREATE TABLE IF NOT EXISTS turns (
    id {identity},
    tenant TEXT NOT NULL,
    phone TEXT NOT NULL,
    message_id TEXT NOT NULL,
    holder TEXT NOT NULL,
    started_at DOUBLE PRECISION NOT NULL,
    ended_at DOUBLE PRECISION
)"""
_TURNS_INDEX = "CREATE INDEX IF NOT EXISTS turns_by_conversation ON turns (tenant, phone, id)"
_ACQUIRE = """
INSERT INTO conversation_leases (tenant, phone, holder, expires_at, taken_over)
VALUES (?, ?, ?, ?, 0)
ON CONFLICT (tenant, phone) DO UPDATE SET
    holder = excluded.holder, expires_at = excluded.expires_at,
    taken_over = CASE WHEN conversation_leases.holder = excluded.holder THEN 0 ELSE 1 END
WHERE conversation_leases.expires_at <= ? OR conversation_leases.holder = excluded.holder
RETURNING taken_over"""
_RENEW = """
UPDATE conversation_leases SET expires_at = ? WHERE tenant = ? AND phone = ? AND holder = ?
RETURNING holder"""
_RELEASE = "DELETE FROM conversation_leases WHERE tenant = ? AND phone = ? AND holder = ?"
_FORGET_ALL = "DELETE FROM conversation_leases"
_START_TURN = """
INSERT INTO turns (tenant, phone, message_id, holder, started_at) VALUES (?, ?, ?, ?, ?)
RETURNING id"""
_END_TURN = "UPDATE turns SET ended_at = ? WHERE id = ?"
_TURNS_OF = """
SELECT tenant, phone, message_id, holder, started_at, ended_at FROM turns ORDER BY id"""


@dataclass(frozen=True, slots=True)
class Lease:
    """A lease just taken; `taken_over` when it was another holder's and had expired."""

    holder: str
    taken_over: bool


@dataclass(frozen=True, slots=True)
class TurnSpan:
    """One turn as the trace has it (times are epoch seconds of the store's clock)."""

    tenant: str
    phone: str
    message_id: str
    holder: str
    started_at: float
    ended_at: float | None


class SqlCoordination(StorePart):
    """Leases and the turn trace on the conversation store's connection and lock."""

    def __init__(
        self, connection: Any, dialect: Any, lock: threading.RLock, now: Callable[[], datetime]
    ) -> None:
        super().__init__(
            connection,
            dialect,
            lock,
            now,
            (_LEASES, _TURNS.format(identity=dialect.identity_column), _TURNS_INDEX),
        )

    def _epoch(self) -> float:
        return self._now().timestamp()

    def acquire(self, tenant: str, phone: str, holder: str, seconds: float) -> Lease | None:
        """Take (or extend) the conversation's lease for `seconds`; None while someone else
        holds a lease that has not expired."""
        now = self._epoch()
        rows = self._rows(_ACQUIRE, (tenant, phone, holder, now + seconds, now))
        return Lease(holder, bool(rows[0][0])) if rows else None

    def renew(self, tenant: str, phone: str, holder: str, seconds: float) -> bool:
        """Extend a lease still held; False when it expired and someone else took it."""
        return bool(self._rows(_RENEW, (self._epoch() + seconds, tenant, phone, holder)))

    def release(self, tenant: str, phone: str, holder: str) -> None:
        """Give the lease up (a no-op when it is no longer ours)."""
        with self._lock:
            self._connection.execute(self._dialect.sql(_RELEASE), (tenant, phone, holder))

    def forget_all(self) -> None:
        """Drop every lease: only for a store one process owns (SQLite), at its start, where
        any lease left is a dead predecessor's."""
        with self._lock:
            self._connection.execute(_FORGET_ALL)

    def start_turn(self, tenant: str, phone: str, message_id: str, holder: str) -> int:
        rows = self._rows(_START_TURN, (tenant, phone, message_id, holder, self._epoch()))
        return int(rows[0][0])

    def end_turn(self, turn_id: int) -> None:
        with self._lock:
            self._connection.execute(self._dialect.sql(_END_TURN), (self._epoch(), turn_id))

    def turns(self) -> list[TurnSpan]:
        """Every traced turn, in start order."""
        return [
            TurnSpan(r[0], r[1], r[2], r[3], float(r[4]), None if r[5] is None else float(r[5]))
            for r in self._rows(_TURNS_OF, ())
        ]
