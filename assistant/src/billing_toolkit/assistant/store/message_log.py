"""The WhatsApp message log: every message in and out, with where it is in its life.

An inbound message is written (`received`) before the webhook acknowledges it, claimed
(`processing`) when a turn starts, and closed (`done` or `failed`) in the same transaction
that stores the replies it produced (`pending`). A reply is marked `sending` before it is
handed to the Graph API and settled (`sent` or `failed`) after. So a crash at any point leaves
a trace that start-up recovery can act on: a message still `received` or `processing` is
processed again; a reply still `pending` was never handed over and is sent; a reply still
`sending` may have reached the subscriber — the Graph API has no way to ask — and is sent
once more, marked `resending`; one still `resending` after a second crash is not sent a third
time but handed to a person. Bias: at least once — a subscriber may, after a crash, get a
reply twice, but never no reply without a person being told.

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

from billing_toolkit.assistant.store.storable import storable
from billing_toolkit.assistant.store.store_part import StorePart

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
_IN_COLUMNS = (
    "seq, tenant, channel_id, message_id, phone, kind, body, status, attempts, error, "
    "received_at, updated_at"
)
_OUT_COLUMNS = (
    "id, tenant, channel_id, phone, reply_to, body, status, attempts, error, "
    "provider_id, created_at, updated_at"
)
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
WHERE tenant = ? AND message_id = ? AND status IN (?, ?) AND attempts = ?"""
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
_UNSETTLED = f"""
SELECT {_OUT_COLUMNS} FROM outbound_messages WHERE status IN (?, ?) ORDER BY id"""
_INTEND = f"""
UPDATE outbound_messages SET status = ?, updated_at = ?
WHERE id = ? AND status = ? RETURNING {_OUT_COLUMNS}"""
_OUTBOUND_OF = f"""
SELECT {_OUT_COLUMNS} FROM outbound_messages WHERE tenant = ? AND phone = ? ORDER BY id"""
_NEXT_OPEN = f"""
SELECT {_IN_COLUMNS} FROM inbound_messages
WHERE tenant = ? AND phone = ? AND status IN (?, ?) ORDER BY seq LIMIT 1"""
_UNSENT_OF = f"""
SELECT {_OUT_COLUMNS} FROM outbound_messages
WHERE tenant = ? AND phone = ? AND status IN (?, ?, ?) ORDER BY id"""
_WITH_WORK = """
SELECT tenant, phone FROM (
    SELECT tenant, phone, MIN(received_at) AS since FROM inbound_messages
    WHERE status IN (?, ?) GROUP BY tenant, phone
    UNION ALL
    SELECT tenant, phone, MIN(created_at) AS since FROM outbound_messages
    WHERE status IN (?, ?, ?) GROUP BY tenant, phone
) work
WHERE NOT EXISTS (SELECT 1 FROM conversation_leases lease WHERE lease.tenant = work.tenant
                  AND lease.phone = work.phone AND lease.expires_at > ?)
GROUP BY tenant, phone ORDER BY MIN(since), tenant, phone LIMIT ?"""
_BACKLOG = """
SELECT COUNT(*), MIN(received_at) FROM inbound_messages WHERE status = ?"""
_UNSENT_COUNT = "SELECT COUNT(*) FROM outbound_messages WHERE status IN (?, ?, ?)"


class InboundStatus(StrEnum):
    RECEIVED = "received"
    PROCESSING = "processing"
    DONE = "done"
    FAILED = "failed"


class OutboundStatus(StrEnum):
    PENDING = "pending"
    SENDING = "sending"
    """Handed to the Graph API, its answer not yet recorded."""
    RESENDING = "resending"
    """Found `sending` at start-up and handed over again: it may arrive twice."""
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
    note: str | None = None
    """Why a reply failed, or that it was resent after a crash and may have arrived twice."""


def _inbound(row: Sequence[Any]) -> InboundRecord:
    return InboundRecord(
        seq=int(row[0]),
        tenant=row[1],
        channel_id=row[2],
        message_id=row[3],
        phone=row[4],
        kind=row[5],
        text=row[6],
        status=InboundStatus(row[7]),
        attempts=int(row[8]),
        error=row[9],
        received_at=datetime.fromisoformat(row[10]),
        updated_at=datetime.fromisoformat(row[11]),
    )


def _outbound(row: Sequence[Any]) -> OutboundRecord:
    return OutboundRecord(
        id=int(row[0]),
        tenant=row[1],
        channel_id=row[2],
        phone=row[3],
        reply_to=row[4],
        text=row[5],
        status=OutboundStatus(row[6]),
        attempts=int(row[7]),
        error=row[8],
        provider_id=row[9],
        created_at=datetime.fromisoformat(row[10]),
        updated_at=datetime.fromisoformat(row[11]),
    )


_OPEN = (InboundStatus.RECEIVED.value, InboundStatus.PROCESSING.value)
_UNSENT = (
    OutboundStatus.PENDING.value,
    OutboundStatus.SENDING.value,
    OutboundStatus.RESENDING.value,
)


@dataclass(frozen=True, slots=True)
class Backlog:
    """What waits: messages not yet claimed, since when, and replies not yet settled."""

    unclaimed: int
    oldest_unclaimed: datetime | None
    unsent: int


class SqlMessageLog(StorePart):
    """The message log on the conversation store's connection (see `store/sql.py`).

    `dialect` is the store's `Dialect`; `lock` the store's re-entrant lock, held for every
    statement and transaction.
    """

    def __init__(
        self, connection: Any, dialect: Any, lock: threading.RLock, now: Callable[[], datetime]
    ) -> None:
        super().__init__(
            connection,
            dialect,
            lock,
            now,
            (
                _INBOUND.format(identity=dialect.identity_column),
                _OUTBOUND.format(identity=dialect.identity_column),
                *_INDEXES,
            ),
        )

    def _relaxed_rows(self, statement: str, params: tuple[Any, ...]) -> list[Any]:
        with self._lock, self._dialect.relaxed(self._connection):
            return list(self._connection.execute(self._dialect.sql(statement), params).fetchall())

    def receive(
        self, tenant: str, channel_id: str, message_id: str, phone: str, kind: str, text: str | None
    ) -> InboundRecord | None:
        """Store a new inbound message as `received`; None when (tenant, message_id) is
        already stored — a redelivery, to be acknowledged and otherwise ignored. Text the
        store cannot hold is repaired first (`storable`): the record returned is what was
        stored, and what the turn reads."""
        now = self._now().isoformat()
        fields = tuple(map(storable, (tenant, channel_id, message_id, phone, kind)))
        body = None if text is None else storable(text)
        rows = self._rows(_RECEIVE, (*fields, body, InboundStatus.RECEIVED.value, now, now))
        return _inbound(rows[0]) if rows else None

    def claim(self, tenant: str, message_id: str) -> InboundRecord | None:
        """Mark the message `processing` (counting the attempt) if it is still open; None
        when it is already done or failed, so a message is never processed after it closed."""
        rows = self._rows(
            _CLAIM,
            (InboundStatus.PROCESSING.value, self._now().isoformat(), tenant, message_id, *_OPEN),
        )
        return _inbound(rows[0]) if rows else None

    def close(
        self, message: InboundRecord, replies: Sequence[str], *, error: str | None = None
    ) -> list[OutboundRecord]:
        """Close the message — `done`, or `failed` with `error` — and queue its replies as
        `pending`, atomically: either both happen or the message stays open.

        Only the attempt that is still the message's last one closes it: a replica that
        stalled past its lease, and whose message another replica claimed again meanwhile,
        closes nothing and queues no reply ([] — the newer attempt answers)."""
        now = self._now().isoformat()
        status = InboundStatus.FAILED if error else InboundStatus.DONE
        with self._lock, self._dialect.transaction(self._connection):
            closed = self._connection.execute(
                self._dialect.sql(_CLOSE),
                (
                    status.value,
                    error,
                    now,
                    message.tenant,
                    message.message_id,
                    *_OPEN,
                    message.attempts,
                ),
            ).rowcount
            if not closed:
                return []
            return [
                self._queue(
                    message.tenant, message.channel_id, message.phone, message.message_id, text, now
                )
                for text in replies
            ]

    def last_channel(self, tenant: str, phone: str) -> str | None:
        """The operator's number the subscriber last wrote to: where a person answers from."""
        rows = self._rows(_LAST_CHANNEL, (tenant, phone))
        return str(rows[0][0]) if rows else None

    def queue(self, tenant: str, channel_id: str, phone: str, text: str) -> OutboundRecord:
        """A message that answers no particular inbound one (an agent's), `pending`."""
        with self._lock:
            return self._queue(tenant, channel_id, phone, None, text, self._now().isoformat())

    def _queue(
        self, tenant: str, channel_id: str, phone: str, reply_to: str | None, text: str, now: str
    ) -> OutboundRecord:
        row = self._connection.execute(
            self._dialect.sql(_QUEUE),
            (
                tenant,
                channel_id,
                phone,
                reply_to,
                storable(text),
                OutboundStatus.PENDING.value,
                now,
                now,
            ),
        ).fetchone()
        return _outbound(row)

    def intend(self, outbound: OutboundRecord) -> OutboundRecord | None:
        """Record, before sending, that `outbound` is being handed to the Graph API: `pending`
        becomes `sending`, and `sending` (found so at start-up) becomes `resending`. None when
        it is no longer in the state it was read in (another worker has it, or it settled).

        Written without waiting for the disk (`Dialect.relaxed`), like `settle`: a mark lost
        to a power cut costs at most one repeated reply, while each synced write here would
        hold the store's lock — and the results of other sends waiting behind it — for an
        fsync, widening the window in which a crash repeats a reply."""
        after = {
            OutboundStatus.PENDING: OutboundStatus.SENDING,
            OutboundStatus.SENDING: OutboundStatus.RESENDING,
        }.get(outbound.status)
        if after is None:
            return None
        rows = self._relaxed_rows(
            _INTEND, (after.value, self._now().isoformat(), outbound.id, outbound.status.value)
        )
        return _outbound(rows[0]) if rows else None

    def settle(
        self,
        outbound: OutboundRecord,
        status: OutboundStatus,
        *,
        attempts: int,
        error: str | None = None,
        provider_id: str | None = None,
    ) -> OutboundRecord:
        """Record how sending ended: `sent` (with WhatsApp's id) or `failed` (with why),
        without waiting for the disk (see `intend`): the sooner it is recorded, the fewer
        replies a crash sends twice."""
        rows = self._relaxed_rows(
            _SETTLE,
            (status.value, attempts, error, provider_id, self._now().isoformat(), outbound.id),
        )
        return _outbound(rows[0])

    def unfinished(self) -> list[InboundRecord]:
        """Inbound messages still `received` or `processing`, oldest first: after a crash,
        the ones to process again."""
        return [_inbound(row) for row in self._rows(_UNFINISHED, _OPEN)]

    def pending(self) -> list[OutboundRecord]:
        """Replies never handed to the Graph API, oldest first."""
        return [_outbound(row) for row in self._rows(_PENDING, (OutboundStatus.PENDING.value,))]

    def unsettled(self) -> list[OutboundRecord]:
        """Replies handed to the Graph API whose answer was never recorded (`sending`,
        `resending`), oldest first: after a crash, the ones that may have arrived."""
        return [
            _outbound(row)
            for row in self._rows(
                _UNSETTLED, (OutboundStatus.SENDING.value, OutboundStatus.RESENDING.value)
            )
        ]

    def next_open(self, tenant: str, phone: str) -> InboundRecord | None:
        """The conversation's oldest message still `received` or `processing`: the only one
        its lease holder may run a turn for, so a subscriber is answered in arrival order."""
        rows = self._rows(_NEXT_OPEN, (tenant, phone, *_OPEN))
        return _inbound(rows[0]) if rows else None

    def unsent_of(self, tenant: str, phone: str) -> list[OutboundRecord]:
        """The conversation's replies not settled yet (`pending`, `sending`, `resending`),
        oldest first: its lease holder sends them before the next turn."""
        return [_outbound(row) for row in self._rows(_UNSENT_OF, (tenant, phone, *_UNSENT))]

    def conversations_with_work(self, now: float, limit: int) -> list[tuple[str, str]]:
        """Conversations with an open message or an unsettled reply and no live lease at
        epoch `now` (nobody works on them, or their worker died), longest waiting first."""
        return [
            (str(r[0]), str(r[1])) for r in self._rows(_WITH_WORK, (*_OPEN, *_UNSENT, now, limit))
        ]

    def backlog(self) -> Backlog:
        [(count, oldest)] = self._rows(_BACKLOG, (InboundStatus.RECEIVED.value,))
        [(unsent,)] = self._rows(_UNSENT_COUNT, _UNSENT)
        return Backlog(
            int(count), None if oldest is None else datetime.fromisoformat(oldest), int(unsent)
        )

    def outbound_of(self, tenant: str, phone: str) -> list[OutboundRecord]:
        """Every message to the subscriber, oldest first, with the message each answers."""
        return [_outbound(row) for row in self._rows(_OUTBOUND_OF, (tenant, phone))]

    def history(self, tenant: str, phone: str) -> list[HistoryEntry]:
        """Both directions of one conversation, in time order (ties: the subscriber's message
        before the reply to it)."""
        entries = [
            HistoryEntry("in", m.received_at, m.kind, m.text, m.status.value, m.message_id)
            for m in map(_inbound, self._rows(_INBOUND_OF, (tenant, phone)))
        ]
        entries += [
            HistoryEntry(
                "out",
                m.created_at,
                "text",
                m.text,
                m.status.value,
                m.provider_id or f"outbound-{m.id}",
                m.error,
            )
            for m in self.outbound_of(tenant, phone)
        ]
        return sorted(entries, key=lambda e: (e.at, e.direction != "in"))
