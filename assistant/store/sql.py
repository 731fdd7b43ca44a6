"""The conversation store on SQL: SQLite (embedded default) or PostgreSQL (production).

One implementation, two dialects: the statements are portable (`ON CONFLICT … DO UPDATE`,
`RETURNING`), and only the schema's identity column, the placeholder and how a transaction
is opened differ. Timestamps are stored as ISO-8601 text from the injected clock so both
backends return the same values and tests never depend on the wall clock.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from assistant.escalation import Escalation
from assistant.language import Language
from assistant.store.model import Conversation, ConversationState, EscalationRecord

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
_COLUMNS = "tenant, phone, state, verified_account, pending_question, language, agent_id, updated_at"
_UPSERT = f"""
INSERT INTO conversations ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (tenant, phone) DO UPDATE SET
    state = excluded.state, verified_account = excluded.verified_account,
    pending_question = excluded.pending_question, language = excluded.language,
    agent_id = excluded.agent_id, updated_at = excluded.updated_at"""
_SELECT = f"SELECT {_COLUMNS} FROM conversations WHERE tenant = ? AND phone = ?"
_INSERT_ESCALATION = """
INSERT INTO escalations (tenant, phone, reason, summary_es, summary_en, context, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id"""
_SELECT_ESCALATIONS = """
SELECT id, tenant, phone, reason, summary_es, summary_en, context, created_at
FROM escalations WHERE tenant = ? AND phone = ? ORDER BY id"""


@dataclass(frozen=True, slots=True)
class Dialect:
    """What differs between the two SQL backends."""

    name: str
    identity_column: str
    placeholder: str
    transaction: Callable[[Any], AbstractContextManager[Any]]

    def sql(self, statement: str) -> str:
        return statement.replace("?", self.placeholder)


@contextmanager
def _sqlite_transaction(connection: sqlite3.Connection) -> Iterator[None]:
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


SQLITE = Dialect("sqlite", "INTEGER PRIMARY KEY AUTOINCREMENT", "?", _sqlite_transaction)
POSTGRES = Dialect("postgresql", "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "%s",
                   lambda connection: connection.transaction())


def _utc_now() -> datetime:
    return datetime.now(UTC)


class SqlConversationStore:
    """A `ConversationStore` over an open DB-API connection in autocommit mode."""

    def __init__(self, connection: Any, dialect: Dialect, *, now: Clock | None = None) -> None:
        self._connection = connection
        self._dialect = dialect
        self._now = now or _utc_now
        with dialect.transaction(connection):
            for statement in (_CONVERSATIONS,
                              _ESCALATIONS.format(identity=dialect.identity_column), _INDEX):
                connection.execute(statement)

    def _execute(self, statement: str, params: tuple[Any, ...]) -> Any:
        return self._connection.execute(self._dialect.sql(statement), params)

    def get(self, tenant: str, phone: str) -> Conversation:
        row = self._execute(_SELECT, (tenant, phone)).fetchone()
        if row is None:
            return Conversation(tenant=tenant, phone=phone)
        return Conversation(
            tenant=row[0], phone=row[1], state=ConversationState(row[2]),
            verified_account=row[3], pending_question=row[4], language=Language(row[5]),
            agent_id=row[6], updated_at=datetime.fromisoformat(row[7]))

    def _upsert(self, conversation: Conversation) -> Conversation:
        now = self._now()
        stored = replace(conversation, updated_at=now)
        self._execute(_UPSERT, (
            stored.tenant, stored.phone, stored.state.value, stored.verified_account,
            stored.pending_question, stored.language.value, stored.agent_id, now.isoformat()))
        return stored

    def save(self, conversation: Conversation) -> Conversation:
        with self._dialect.transaction(self._connection):
            return self._upsert(conversation)

    def record_escalation(
        self, conversation: Conversation, escalation: Escalation
    ) -> EscalationRecord:
        created_at = self._now()
        context = json.dumps(escalation.to_dict()["context"], ensure_ascii=False, sort_keys=True)
        with self._dialect.transaction(self._connection):
            self._upsert(replace(conversation, state=ConversationState.WAITING_FOR_HUMAN))
            row = self._execute(_INSERT_ESCALATION, (
                conversation.tenant, conversation.phone, escalation.reason.value,
                escalation.summary.es, escalation.summary.en, context,
                created_at.isoformat())).fetchone()
        return EscalationRecord(
            id=int(row[0]), tenant=conversation.tenant, phone=conversation.phone,
            reason=escalation.reason.value, summary_es=escalation.summary.es,
            summary_en=escalation.summary.en, context=json.loads(context), created_at=created_at)

    def assign_agent(self, tenant: str, phone: str, agent_id: str) -> Conversation:
        with self._dialect.transaction(self._connection):
            current = self.get(tenant, phone)
            return self._upsert(replace(current, state=ConversationState.HUMAN_ACTIVE,
                                        agent_id=agent_id))

    def release_to_bot(self, tenant: str, phone: str) -> Conversation:
        with self._dialect.transaction(self._connection):
            current = self.get(tenant, phone)
            return self._upsert(replace(current, state=ConversationState.BOT, agent_id=None,
                                        pending_question=None))

    def escalations(self, tenant: str, phone: str) -> list[EscalationRecord]:
        rows = self._execute(_SELECT_ESCALATIONS, (tenant, phone)).fetchall()
        return [EscalationRecord(
            id=int(row[0]), tenant=row[1], phone=row[2], reason=row[3], summary_es=row[4],
            summary_en=row[5], context=json.loads(row[6]),
            created_at=datetime.fromisoformat(row[7])) for row in rows]

    def close(self) -> None:
        self._connection.close()
