"""The WhatsApp message log: every message in and out, with where it is in its life.

An inbound message is written (`received`) before the webhook acknowledges it, claimed
(`processing`) when a turn starts, and closed (`done` or `failed`) in the same transaction
that stores the replies it produced (`pending`). So a crash at any point leaves a trace that
start-up recovery can act on: a message still `received` or `processing` is processed again,
a reply still `pending` is sent again. Bias: at least once — a subscriber may, after a crash,
get a reply twice, but never no reply without a person being told.

Idempotency is the unique key (tenant, WhatsApp message id): the platform redelivers a
message it thinks was not acknowledged, and the second copy must be neither processed nor
answered.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

_INBOUND = """
CREATE TABLE IF NOT EXISTS inbound_messages (
    seq {identity},
    tenant TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    phone TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    error TEXT,
    received_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (tenant, message_id)
)"""
_OUTBOUND = """
CREATE TABLE IF NOT EXISTS outbound_messages (
    id {identity},
    tenant TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    phone TEXT NOT NULL,
    reply_to TEXT,
    body TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    error TEXT,
    provider_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
)"""
_INDEXES = (
    "CREATE INDEX IF NOT EXISTS inbound_by_status ON inbound_messages (status, seq)",
    "CREATE INDEX IF NOT EXISTS inbound_by_conversation ON inbound_messages (tenant, phone, seq)",
    "CREATE INDEX IF NOT EXISTS outbound_by_status ON outbound_messages (status, id)",
    "CREATE INDEX IF NOT EXISTS outbound_by_conversation ON outbound_messages (tenant, phone, id)",
)
_IN_COLUMNS = ("seq, tenant, channel_id, message_id, phone, kind, body, status, attempts, error, "
               "received_at, updated_at")
_OUT_COLUMNS = ("id, tenant, channel_id, phone, reply_to, body, status, attempts, error, "
                "provider_id, created_at, updated_at")
_RECEIVE = f"""
INSERT INTO inbound_messages (tenant, channel_id, message_id, phone, kind, body, status, attempts,
                              received_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)
ON CONFLICT (tenant, message_id) DO NOTHING RETURNING {_IN_COLUMNS}"""
_CLAIM = f"""
UPDATE inbound_messages SET status = ?, attempts = attempts + 1, updated_at = ?
WHERE tenant = ? AND message_id = ? AND status IN (?, ?) RETURNING {_IN_COLUMNS}"""
_CLOSE = """
UPDATE inbound_messages SET status = ?, error = ?, updated_at = ?
WHERE tenant = ? AND message_id = ?"""
_UNFINISHED = f"SELECT {_IN_COLUMNS} FROM inbound_messages WHERE status IN (?, ?) ORDER BY seq"
_INBOUND_OF = f"""
SELECT {_IN_COLUMNS} FROM inbound_messages WHERE tenant = ? AND phone = ? ORDER BY seq"""
_LAST_CHANNEL = """
SELECT channel_id FROM inbound_messages WHERE tenant = ? AND phone = ? ORDER BY seq DESC LIMIT 1"""
_QUEUE = f"""
INSERT INTO outbound_messages (tenant, channel_id, phone, reply_to, body, status, attempts,
                               created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?) RETURNING {_OUT_COLUMNS}"""
_SETTLE = f"""
UPDATE outbound_messages SET status = ?, attempts = ?, error = ?, provider_id = ?, updated_at = ?
WHERE id = ? RETURNING {_OUT_COLUMNS}"""
_PENDING = f"SELECT {_OUT_COLUMNS} FROM outbound_messages WHERE status = ? ORDER BY id"
_OUTBOUND_OF = f"""
SELECT {_OUT_COLUMNS} FROM outbound_messages WHERE tenant = ? AND phone = ? ORDER BY id"""


class InboundStatus(StrEnum):
    RECEIVED = "received"
    PROCESSING = "processing"
    DONE = "done"
    FAILED = "failed"


class OutboundStatus(StrEnum):
    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class InboundRecord:
    """A subscriber's message. `channel_id` is the operator's WhatsApp number id it came to;
    `kind` is WhatsApp's message type (`text`, `audio`, `image`…), `text` its body if any."""

    seq: int
    tenant: str
    channel_id: str
    message_id: str
    phone: str
    kind: str
    text: str | None
    status: InboundStatus
    attempts: int
    error: str | None
    received_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class OutboundRecord:
    """A message to a subscriber; `reply_to` is the inbound message it answers, and
    `provider_id` the id WhatsApp gave it once sent."""

    id: int
    tenant: str
    channel_id: str
    phone: str
    reply_to: str | None
    text: str
    status: OutboundStatus
    attempts: int
    error: str | None
    provider_id: str | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One line of a conversation's history: `direction` is `in` (subscriber) or `out`."""

    direction: str
    at: datetime
    kind: str
    text: str | None
    status: str
    ref: str


def _inbound(row: Sequence[Any]) -> InboundRecord:
    return InboundRecord(
        seq=int(row[0]), tenant=row[1], channel_id=row[2], message_id=row[3], phone=row[4],
        kind=row[5], text=row[6], status=InboundStatus(row[7]), attempts=int(row[8]),
        error=row[9], received_at=datetime.fromisoformat(row[10]),
        updated_at=datetime.fromisoformat(row[11]))


def _outbound(row: Sequence[Any]) -> OutboundRecord:
    return OutboundRecord(
        id=int(row[0]), tenant=row[1], channel_id=row[2], phone=row[3], reply_to=row[4],
        text=row[5], status=OutboundStatus(row[6]), attempts=int(row[7]), error=row[8],
        provider_id=row[9], created_at=datetime.fromisoformat(row[10]),
        updated_at=datetime.fromisoformat(row[11]))


_OPEN = (InboundStatus.RECEIVED.value, InboundStatus.PROCESSING.value)


class SqlMessageLog:
    """The message log on the conversation store's connection (see `store/sql.py`).

    `dialect` is the store's `Dialect`; `lock` the store's re-entrant lock, held for every
    statement and transaction.
    """

    def __init__(self, connection: Any, dialect: Any, lock: threading.RLock,
                 now: Callable[[], datetime]) -> None:
        self._connection = connection
        self._dialect = dialect
        self._lock = lock
        self._now = now
        with self._lock, dialect.transaction(connection):
            for statement in (_INBOUND.format(identity=dialect.identity_column),
                              _OUTBOUND.format(identity=dialect.identity_column), *_INDEXES):
                connection.execute(statement)

    def _rows(self, statement: str, params: tuple[Any, ...]) -> list[Any]:
        with self._lock:
            return list(self._connection.execute(self._dialect.sql(statement), params).fetchall())

    def receive(self, tenant: str, channel_id: str, message_id: str, phone: str, kind: str,
                text: str | None) -> InboundRecord | None:
        """Store a new inbound message as `received`; None when (tenant, message_id) is
        already stored — a redelivery, to be acknowledged and otherwise ignored."""
        now = self._now().isoformat()
        rows = self._rows(_RECEIVE, (tenant, channel_id, message_id, phone, kind, text,
                                     InboundStatus.RECEIVED.value, now, now))
        return _inbound(rows[0]) if rows else None

    def claim(self, tenant: str, message_id: str) -> InboundRecord | None:
        """Mark the message `processing` (counting the attempt) if it is still open; None
        when it is already done or failed, so a message is never processed after it closed."""
        rows = self._rows(_CLAIM, (InboundStatus.PROCESSING.value, self._now().isoformat(),
                                   tenant, message_id, *_OPEN))
        return _inbound(rows[0]) if rows else None

    def close(self, message: InboundRecord, replies: Sequence[str], *,
              error: str | None = None) -> list[OutboundRecord]:
        """Close the message — `done`, or `failed` with `error` — and queue its replies as
        `pending`, atomically: either both happen or the message stays open."""
        now = self._now().isoformat()
        status = InboundStatus.FAILED if error else InboundStatus.DONE
        with self._lock, self._dialect.transaction(self._connection):
            self._connection.execute(self._dialect.sql(_CLOSE), (
                status.value, error, now, message.tenant, message.message_id))
            return [self._queue(message.tenant, message.channel_id, message.phone,
                                message.message_id, text, now) for text in replies]

    def last_channel(self, tenant: str, phone: str) -> str | None:
        """The operator's number the subscriber last wrote to: where a person answers from."""
        rows = self._rows(_LAST_CHANNEL, (tenant, phone))
        return str(rows[0][0]) if rows else None

    def queue(self, tenant: str, channel_id: str, phone: str, text: str) -> OutboundRecord:
        """A message that answers no particular inbound one (an agent's), `pending`."""
        with self._lock:
            return self._queue(tenant, channel_id, phone, None, text, self._now().isoformat())

    def _queue(self, tenant: str, channel_id: str, phone: str, reply_to: str | None, text: str,
               now: str) -> OutboundRecord:
        row = self._connection.execute(self._dialect.sql(_QUEUE), (
            tenant, channel_id, phone, reply_to, text, OutboundStatus.PENDING.value, now,
            now)).fetchone()
        return _outbound(row)

    def settle(self, outbound: OutboundRecord, status: OutboundStatus, *, attempts: int,
               error: str | None = None, provider_id: str | None = None) -> OutboundRecord:
        """Record how sending ended: `sent` (with WhatsApp's id) or `failed` (with why)."""
        rows = self._rows(_SETTLE, (status.value, attempts, error, provider_id,
                                    self._now().isoformat(), outbound.id))
        return _outbound(rows[0])

    def unfinished(self) -> list[InboundRecord]:
        """Inbound messages still `received` or `processing`, oldest first: after a crash,
        the ones to process again."""
        return [_inbound(row) for row in self._rows(_UNFINISHED, _OPEN)]

    def pending(self) -> list[OutboundRecord]:
        """Replies not yet sent, oldest first."""
        return [_outbound(row) for row in self._rows(_PENDING, (OutboundStatus.PENDING.value,))]

    def history(self, tenant: str, phone: str) -> list[HistoryEntry]:
        """Both directions of one conversation, in time order (ties: the subscriber's message
        before the reply to it)."""
        entries = [HistoryEntry("in", m.received_at, m.kind, m.text, m.status.value,
                                m.message_id)
                   for m in map(_inbound, self._rows(_INBOUND_OF, (tenant, phone)))]
        entries += [HistoryEntry("out", m.created_at, "text", m.text, m.status.value,
                                 m.provider_id or f"outbound-{m.id}")
                    for m in map(_outbound, self._rows(_OUTBOUND_OF, (tenant, phone)))]
        return sorted(entries, key=lambda e: (e.at, e.direction != "in"))
