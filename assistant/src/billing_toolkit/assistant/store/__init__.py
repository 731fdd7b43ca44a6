"""The conversation store: SQLite by default, PostgreSQL by DSN.

    store = open_conversation_store()                                # SQLite in memory
    store = open_conversation_store("sqlite:///var/conversations.sqlite3")   # relative path
    store = open_conversation_store("sqlite:////srv/bot/conversations.sqlite3")  # absolute
    store = open_conversation_store("postgresql://bot@db:5432/billing")

The SQLite DSN follows the SQLAlchemy convention everyone already knows (three slashes, then
the path; a fourth slash makes it absolute).
"""

from __future__ import annotations

import sqlite3

from billing_toolkit.assistant.store.coordination import Lease, TurnSpan
from billing_toolkit.assistant.store.message_log import (
    Backlog,
    HistoryEntry,
    InboundRecord,
    InboundStatus,
    OutboundRecord,
    OutboundStatus,
    SqlMessageLog,
)
from billing_toolkit.assistant.store.model import (
    Conversation,
    ConversationState,
    ConversationStore,
    EscalationRecord,
    WaitingConversation,
)
from billing_toolkit.assistant.store.sql import POSTGRES, SQLITE, Clock, SqlConversationStore

__all__ = [
    "Backlog",
    "Conversation",
    "ConversationState",
    "ConversationStore",
    "EscalationRecord",
    "HistoryEntry",
    "InboundRecord",
    "InboundStatus",
    "Lease",
    "OutboundRecord",
    "OutboundStatus",
    "SqlConversationStore",
    "SqlMessageLog",
    "TurnSpan",
    "WaitingConversation",
    "open_conversation_store",
]

_MEMORY = {"", "sqlite://", "sqlite://:memory:", "sqlite:///:memory:"}
_SQLITE_PREFIX = "sqlite:///"
_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_conversation_store(
    dsn: str | None = None, *, now: Clock | None = None
) -> SqlConversationStore:
    """Open (and create if needed) the conversation store named by `dsn`.

    Raises ValueError for a DSN that names neither SQLite nor PostgreSQL, and for a store
    that cannot be opened (a missing folder, a file that is not a database, an unreachable
    server): the message names the store, so a command can print it as its one line.
    """
    dsn = dsn or ""
    if dsn.startswith(_POSTGRES_SCHEMES):
        import psycopg  # imported here: the embedded default must not need a Postgres driver

        try:
            return SqlConversationStore(psycopg.connect(dsn, autocommit=True), POSTGRES, now=now)
        except psycopg.Error as error:
            raise ValueError(f"cannot open the conversation store (PostgreSQL): {error}") from error
    if dsn in _MEMORY:
        path = ":memory:"
    elif dsn.startswith(_SQLITE_PREFIX):
        path = dsn.removeprefix(_SQLITE_PREFIX)
    else:
        raise ValueError(
            f"unsupported conversation store DSN {dsn!r}: expected sqlite:///PATH, "
            "sqlite://:memory: or postgresql://USER@HOST:PORT/DB"
        )
    try:
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        if path != ":memory:":
            _write_ahead(connection)
        return SqlConversationStore(connection, SQLITE, now=now)
    except sqlite3.Error as error:
        raise ValueError(f"cannot open the conversation store {path}: {error}") from error


def _write_ahead(connection: sqlite3.Connection) -> None:
    """Write-ahead log, each commit synced: a message acknowledged to WhatsApp survives even a
    power cut, at one fsync per commit instead of the rollback journal's several (measured
    4x faster per write; `benchmarks/channel_webhook.py`). Bias: durable over fast —
    `synchronous=NORMAL` would be faster still and could lose the last acknowledged
    messages."""
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
