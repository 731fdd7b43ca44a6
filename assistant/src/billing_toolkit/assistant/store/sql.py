"""The conversation store on SQL: SQLite (embedded default) or PostgreSQL (production).

One implementation, two dialects: the statements are portable (`ON CONFLICT … DO UPDATE`,
`RETURNING`), and only the schema's identity column, the placeholder and how a transaction
is opened differ. Timestamps are stored as ISO-8601 text from the injected clock so both
backends return the same values and tests never depend on the wall clock.

One connection serves every thread of a process (the WhatsApp service runs turns in worker
threads while its handoff API reads from the event loop): a re-entrant lock held for each
statement and for each whole transaction keeps one thread's statements out of another's
transaction. The channel's message log (`billing_toolkit.assistant.store.message_log`) shares the
connection and the lock, so one DSN names all of a tenant's conversation data.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from billing_toolkit.assistant.store import referent_column, report_draft_column
from billing_toolkit.assistant.store.coordination import SqlCoordination
from billing_toolkit.assistant.store.message_log import SqlMessageLog
from billing_toolkit.assistant.store.model import (
    Conversation,
    ConversationState,
    EscalationRecord,
    WaitingConversation,
)
from billing_toolkit.assistant.store.sign_ins import SqlSignIns
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.vocabulary.escalation import Escalation

Clock = Callable[[], datetime]

_CONVERSATIONS = """
CREATE TABLE IF NOT EXISTS conversations (
    tenant TEXT NOT NULL,
    phone TEXT NOT NULL,
    state TEXT NOT NULL,
    verified_account TEXT,
    pending_question TEXT,
    language TEXT NOT NULL,
    agent_id TEXT,
    updated_at TEXT NOT NULL,
    referents TEXT,
    report_draft TEXT,
    PRIMARY KEY (tenant, phone)
)"""
_ESCALATIONS = """
CREATE TABLE IF NOT EXISTS escalations (
    id {identity},
    tenant TEXT NOT NULL,
    phone TEXT NOT NULL,
    reason TEXT NOT NULL,
    summary_es TEXT NOT NULL,
    summary_en TEXT NOT NULL,
    context TEXT NOT NULL,
    created_at TEXT NOT NULL
)"""
_INDEX = "CREATE INDEX IF NOT EXISTS escalations_by_conversation ON escalations (tenant, phone, id)"
_COLUMNS = (
    "tenant, phone, state, verified_account, pending_question, language, agent_id, updated_at, "
    "referents, report_draft"
)
_UPSERT = f"""
INSERT INTO conversations ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (tenant, phone) DO UPDATE SET
    state = excluded.state, verified_account = excluded.verified_account,
    pending_question = excluded.pending_question, language = excluded.language,
    agent_id = excluded.agent_id, updated_at = excluded.updated_at,
    referents = excluded.referents, report_draft = excluded.report_draft"""
_WIDTH = len(_COLUMNS.split(", "))
"""How many columns a conversation row has (an escalation's follow it in a join)."""
_SELECT = f"SELECT {_COLUMNS} FROM conversations WHERE tenant = ? AND phone = ?"
_INSERT_ESCALATION = """
INSERT INTO escalations (tenant, phone, reason, summary_es, summary_en, context, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id"""
_ESCALATION_COLUMNS = "id, tenant, phone, reason, summary_es, summary_en, context, created_at"
_SELECT_ESCALATIONS = f"""
SELECT {_ESCALATION_COLUMNS}
FROM escalations WHERE tenant = ? AND phone = ? ORDER BY id"""
_SELECT_IN_STATE = f"""
SELECT {", ".join("c." + column for column in _COLUMNS.split(", "))},
       {", ".join("e." + column for column in _ESCALATION_COLUMNS.split(", "))}
FROM conversations c LEFT JOIN escalations e ON e.id = (
    SELECT MAX(id) FROM escalations WHERE tenant = c.tenant AND phone = c.phone)
WHERE c.tenant = ? AND c.state = ? ORDER BY c.updated_at, c.phone"""


@dataclass(frozen=True, slots=True)
class Dialect:
    """What differs between the two SQL backends."""

    name: str
    identity_column: str
    placeholder: str
    transaction: Callable[[Any], AbstractContextManager[Any]]
    relaxed: Callable[[Any], AbstractContextManager[Any]]
    """Statements inside commit without waiting for the disk: they survive the death of the
    process (kill -9), not always a power cut. For records whose loss costs a repeat, never
    a message (see `message_log.SqlMessageLog.intend`)."""

    schema_lock: str | None = None
    """Run first in each schema-creating transaction: replicas starting together on one
    PostgreSQL would otherwise race in `CREATE TABLE IF NOT EXISTS` (it is not atomic there:
    the loser fails on a duplicate catalog key)."""

    def sql(self, statement: str) -> str:
        return statement.replace("?", self.placeholder)

    @contextmanager
    def schema(self, connection: Any) -> Iterator[None]:
        """A transaction to create tables in, one process at a time."""
        with self.transaction(connection):
            if self.schema_lock is not None:
                connection.execute(self.schema_lock)
            yield


@contextmanager
def _sqlite_transaction(connection: sqlite3.Connection) -> Iterator[None]:
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


@contextmanager
def _sqlite_relaxed(connection: sqlite3.Connection) -> Iterator[None]:
    """`synchronous=NORMAL` for the statements inside: in WAL mode a commit is then written
    to the log but not synced, which a killed process cannot undo."""
    prior = int(connection.execute("PRAGMA synchronous").fetchone()[0])
    connection.execute("PRAGMA synchronous=NORMAL")
    try:
        yield
    finally:
        connection.execute(f"PRAGMA synchronous={prior}")


@contextmanager
def _postgres_relaxed(connection: Any) -> Iterator[None]:
    """`synchronous_commit = off` for one transaction: the server acknowledges the commit
    before its WAL reaches the disk (a server crash may lose it; it never corrupts)."""
    with connection.transaction():
        connection.execute("SET LOCAL synchronous_commit = off")
        yield


SQLITE = Dialect(
    "sqlite", "INTEGER PRIMARY KEY AUTOINCREMENT", "?", _sqlite_transaction, _sqlite_relaxed
)
_SCHEMA_LOCK_KEY = 0x62696C6C  # any constant the deployment's other users do not take
POSTGRES = Dialect(
    "postgresql",
    "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    "%s",
    lambda connection: connection.transaction(),
    _postgres_relaxed,
    f"SELECT pg_advisory_xact_lock({_SCHEMA_LOCK_KEY})",
)


def _utc_now() -> datetime:
    return datetime.now(UTC)


class SqlConversationStore:
    """A `ConversationStore` over an open DB-API connection in autocommit mode."""

    def __init__(self, connection: Any, dialect: Dialect, *, now: Clock | None = None) -> None:
        self._connection = connection
        self._dialect = dialect
        self._now = now or _utc_now
        self._lock = threading.RLock()
        with self._lock, dialect.schema(connection):
            for statement in (
                _CONVERSATIONS,
                _ESCALATIONS.format(identity=dialect.identity_column),
                _INDEX,
            ):
                connection.execute(statement)
            referent_column.ensure_column(connection, dialect.name)
            report_draft_column.ensure_column(connection, dialect.name)
        self.coordination = SqlCoordination(connection, dialect, self._lock, self._now)
        """Conversation leases and the turn trace: one replica at a time per conversation."""
        self.messages = SqlMessageLog(connection, dialect, self._lock, self._now)
        """Every WhatsApp message in and out, for redelivery, recovery and the history."""
        self.sign_ins = SqlSignIns(connection, dialect, self._lock, self._now)
        """The inbox's failed sign-ins and live sessions, shared by the replicas."""

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._lock, self._dialect.transaction(self._connection):
            yield

    def _execute(self, statement: str, params: tuple[Any, ...]) -> Any:
        with self._lock:
            return self._connection.execute(self._dialect.sql(statement), params)

    def _fetchall(self, statement: str, params: tuple[Any, ...]) -> list[Any]:
        with self._lock:
            return list(self._execute(statement, params).fetchall())

    def get(self, tenant: str, phone: str) -> Conversation:
        with self._lock:
            row = self._execute(_SELECT, (tenant, phone)).fetchone()
        if row is None:
            return Conversation(tenant=tenant, phone=phone)
        return _conversation(row)

    def _upsert(self, conversation: Conversation) -> Conversation:
        now = self._now()
        stored = replace(conversation, updated_at=now)
        self._execute(
            _UPSERT,
            (
                stored.tenant,
                stored.phone,
                stored.state.value,
                stored.verified_account,
                stored.pending_question,
                stored.language.value,
                stored.agent_id,
                now.isoformat(),
                referent_column.encode(stored.referents),
                report_draft_column.encode(stored.report_draft),
            ),
        )
        return stored

    def save(self, conversation: Conversation) -> Conversation:
        with self._transaction():
            return self._upsert(conversation)

    def record_escalation(
        self, conversation: Conversation, escalation: Escalation
    ) -> EscalationRecord:
        with self._transaction():
            self._upsert(replace(conversation, state=ConversationState.WAITING_FOR_HUMAN))
            return self._insert_escalation(
                conversation.tenant,
                conversation.phone,
                escalation.reason.value,
                escalation.summary.es,
                escalation.summary.en,
                escalation.to_dict()["context"],
            )

    def record_handoff(
        self,
        tenant: str,
        phone: str,
        reason: str,
        summary_es: str,
        summary_en: str,
        context: dict[str, Any],
    ) -> EscalationRecord:
        """Hand the conversation to a person for a reason found outside a turn (a reply that
        could not be delivered, a message that could not be processed): stored like an
        escalation, so the console lists it with the rest. A conversation a person already
        has stays theirs; any other becomes `WAITING_FOR_HUMAN`."""
        with self._transaction():
            current = self.get(tenant, phone)
            if current.state is not ConversationState.HUMAN_ACTIVE:
                self._upsert(replace(current, state=ConversationState.WAITING_FOR_HUMAN))
            return self._insert_escalation(tenant, phone, reason, summary_es, summary_en, context)

    def _insert_escalation(
        self,
        tenant: str,
        phone: str,
        reason: str,
        summary_es: str,
        summary_en: str,
        context: dict[str, Any],
    ) -> EscalationRecord:
        created_at = self._now()
        encoded = json.dumps(context, ensure_ascii=False, sort_keys=True)
        row = self._execute(
            _INSERT_ESCALATION,
            (tenant, phone, reason, summary_es, summary_en, encoded, created_at.isoformat()),
        ).fetchone()
        return EscalationRecord(
            id=int(row[0]),
            tenant=tenant,
            phone=phone,
            reason=reason,
            summary_es=summary_es,
            summary_en=summary_en,
            context=json.loads(encoded),
            created_at=created_at,
        )

    def assign_agent(self, tenant: str, phone: str, agent_id: str) -> Conversation:
        with self._transaction():
            current = self.get(tenant, phone)
            return self._upsert(
                replace(current, state=ConversationState.HUMAN_ACTIVE, agent_id=agent_id)
            )

    def release_to_bot(self, tenant: str, phone: str) -> Conversation:
        with self._transaction():
            current = self.get(tenant, phone)
            return self._upsert(
                replace(current, state=ConversationState.BOT, agent_id=None, pending_question=None)
            )

    def escalations(self, tenant: str, phone: str) -> list[EscalationRecord]:
        return [_escalation(row) for row in self._fetchall(_SELECT_ESCALATIONS, (tenant, phone))]

    def in_state(self, tenant: str, state: ConversationState) -> list[WaitingConversation]:
        """The tenant's conversations in `state` with their latest escalation, least recently
        changed first (the one waiting longest heads the agents' queue)."""
        return [
            WaitingConversation(
                _conversation(row[:_WIDTH]),
                _escalation(row[_WIDTH:]) if row[_WIDTH] is not None else None,
            )
            for row in self._fetchall(_SELECT_IN_STATE, (tenant, state.value))
        ]

    @property
    def dialect(self) -> str:
        """`sqlite` or `postgresql`: whether several processes may share the store."""
        return self._dialect.name

    def now(self) -> datetime:
        """The store's clock (injected in tests): leases expire by it."""
        return self._now()

    def close(self) -> None:
        with self._lock:
            self._connection.close()


def _conversation(row: Any) -> Conversation:
    return Conversation(
        tenant=row[0],
        phone=row[1],
        state=ConversationState(row[2]),
        verified_account=row[3],
        pending_question=row[4],
        language=Language(row[5]),
        agent_id=row[6],
        updated_at=datetime.fromisoformat(row[7]),
        referents=referent_column.decode(row[8]),
        report_draft=report_draft_column.decode(row[9]),
    )


def _escalation(row: Any) -> EscalationRecord:
    return EscalationRecord(
        id=int(row[0]),
        tenant=row[1],
        phone=row[2],
        reason=row[3],
        summary_es=row[4],
        summary_en=row[5],
        context=json.loads(row[6]),
        created_at=datetime.fromisoformat(row[7]),
    )
