"""The conversation store, identical on SQLite (memory and file) and PostgreSQL."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from billing_toolkit.assistant.store import (
    Conversation,
    ConversationState,
    SqlConversationStore,
    open_conversation_store,
)
from billing_toolkit.assistant.store.model import Referent, Referents
from billing_toolkit.assistant.store.referent_column import decode
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.vocabulary.escalation import (
    AgentSummary,
    Escalation,
    EscalationContext,
    EscalationReason,
    escalate,
)

PHONE = "+584121234567"


def test_a_new_conversation_is_a_bot_conversation_not_yet_stored(
    any_store: SqlConversationStore,
) -> None:
    conversation = any_store.get("fibranet", PHONE)
    assert conversation == Conversation("fibranet", PHONE)
    assert any_store.escalations("fibranet", PHONE) == []


def test_saved_state_round_trips(any_store: SqlConversationStore) -> None:
    saved = any_store.save(
        Conversation(
            "fibranet",
            PHONE,
            verified_account="1000004821",
            pending_question="¿cuánto debo?",
            language=Language.ENGLISH,
        )
    )
    assert saved.updated_at == datetime(2026, 11, 29, 12, 0, 1, tzinfo=UTC)
    assert any_store.get("fibranet", PHONE) == saved


def test_conversations_are_keyed_by_tenant_and_phone(any_store: SqlConversationStore) -> None:
    any_store.save(Conversation("fibranet", PHONE, verified_account="1000004821"))
    assert any_store.get("llanolink", PHONE).verified_account is None


def test_an_escalation_is_stored_and_leaves_the_conversation_waiting(
    any_store: SqlConversationStore,
) -> None:
    escalation = escalate(
        EscalationReason.TOOL_ERROR,
        EscalationContext(
            phone=PHONE, message="mi saldo", capability="balance", tool_error="unavailable"
        ),
    )
    record = any_store.record_escalation(Conversation("fibranet", PHONE), escalation)
    assert any_store.get("fibranet", PHONE).state is ConversationState.WAITING_FOR_HUMAN
    [stored] = any_store.escalations("fibranet", PHONE)
    assert stored == record
    assert stored.reason == "TOOL_ERROR"
    assert stored.context["capability"] == "balance"
    assert stored.summary_en.startswith("Could not query the billing system")


def test_escalations_come_back_oldest_first(any_store: SqlConversationStore) -> None:
    for reason in (EscalationReason.USER_REQUEST, EscalationReason.NO_CONTEXT):
        any_store.record_escalation(
            Conversation("fibranet", PHONE),
            escalate(reason, EscalationContext(phone=PHONE, message="x")),
        )
    assert [e.reason for e in any_store.escalations("fibranet", PHONE)] == [
        "USER_REQUEST",
        "NO_CONTEXT",
    ]


def test_an_agent_takes_and_releases_a_conversation(any_store: SqlConversationStore) -> None:
    any_store.save(Conversation("fibranet", PHONE, pending_question="¿cuánto debo?"))
    taken = any_store.assign_agent("fibranet", PHONE, "agent-7")
    assert (taken.state, taken.agent_id) == (ConversationState.HUMAN_ACTIVE, "agent-7")
    released = any_store.release_to_bot("fibranet", PHONE)
    assert (released.state, released.agent_id, released.pending_question) == (
        ConversationState.BOT,
        None,
        None,
    )
    assert any_store.get("fibranet", PHONE) == released


def test_a_failed_write_leaves_nothing_behind(any_store: SqlConversationStore) -> None:
    """The escalation row violates NOT NULL after the conversation row was written: both go."""
    broken = Escalation(
        EscalationReason.USER_REQUEST,
        AgentSummary(es=None, en=None),  # type: ignore[arg-type]
        EscalationContext(phone=PHONE, message="agente"),
    )
    with pytest.raises(Exception, match="(?i)null"):
        any_store.record_escalation(Conversation("fibranet", PHONE), broken)
    assert any_store.get("fibranet", PHONE).state is ConversationState.BOT
    assert any_store.escalations("fibranet", PHONE) == []


def test_a_file_store_keeps_its_state_across_reopening(tmp_path) -> None:  # type: ignore[no-untyped-def]
    dsn = f"sqlite:///{tmp_path / 'conversations.sqlite3'}"
    first = open_conversation_store(dsn)
    first.save(Conversation("fibranet", PHONE, verified_account="1000004821"))
    first.close()
    again = open_conversation_store(dsn)
    assert again.get("fibranet", PHONE).verified_account == "1000004821"
    again.close()


@pytest.mark.parametrize("dsn", ["mysql://db/x", "sqlite:/relative", "conversations.db"])
def test_an_unknown_dsn_is_a_clear_error(dsn: str) -> None:
    with pytest.raises(ValueError, match="unsupported conversation store DSN"):
        open_conversation_store(dsn)


@pytest.mark.parametrize("contents", [None, b"not a database, just text"])
def test_an_unusable_sqlite_store_is_a_clear_error_naming_the_file(
    tmp_path: Path, contents: bytes | None
) -> None:
    path = tmp_path / "no-such-folder" / "conversations.sqlite3"
    if contents is not None:
        path = tmp_path / "conversations.sqlite3"
        path.write_bytes(contents)
    with pytest.raises(ValueError, match=f"cannot open the conversation store {path}"):
        open_conversation_store(f"sqlite:///{path}")


UNTIL = datetime(2026, 11, 29, 12, 30, tzinfo=UTC)
SHOWN = Referents(
    (Referent("invoice", "INV-2026-004281"), Referent("invoice", "INV-2026-004102")), UNTIL
)


def test_referents_round_trip_with_their_expiry(any_store: SqlConversationStore) -> None:
    saved = any_store.save(Conversation("fibranet", PHONE, referents=SHOWN))
    stored = any_store.get("fibranet", PHONE)
    assert stored == saved and stored.referents == SHOWN
    in_state = any_store.in_state("fibranet", ConversationState.BOT)
    assert [w.conversation.referents for w in in_state] == [SHOWN]


def old_store(path: Path, *added: str) -> Path:
    """A SQLite store as shipped before its later columns, with one conversation; `added`
    names the later TEXT columns it already had."""
    extra = "".join(f"{column} TEXT, " for column in added)
    with sqlite3.connect(path) as old:
        old.execute(
            "CREATE TABLE conversations (tenant TEXT NOT NULL, phone TEXT NOT NULL, "
            "state TEXT NOT NULL, verified_account TEXT, pending_question TEXT, "
            f"language TEXT NOT NULL, agent_id TEXT, updated_at TEXT NOT NULL, {extra}"
            "PRIMARY KEY (tenant, phone))"
        )
        old.execute(
            "INSERT INTO conversations VALUES ('fibranet', ?, 'bot', NULL, NULL, 'es', NULL, "
            f"'2026-11-29T12:00:00+00:00'{', NULL' * len(added)})",
            (PHONE,),
        )
    return path


def test_a_store_made_before_referents_gains_the_column(tmp_path: Path) -> None:
    path = old_store(tmp_path / "old.sqlite3")
    store = open_conversation_store(f"sqlite:///{path}")
    try:
        assert store.get("fibranet", PHONE).referents == Referents()
        store.save(Conversation("fibranet", PHONE, referents=SHOWN))
        assert store.get("fibranet", PHONE).referents == SHOWN
    finally:
        store.close()


@pytest.mark.parametrize("text", ["not json", '{"items": [["invoice"]]}', '{"items": []}'])
def test_an_unreadable_referents_value_is_no_referents(text: str) -> None:
    assert decode(text) == Referents()


def test_expired_referents_point_at_nothing() -> None:
    assert SHOWN.live(UNTIL - timedelta(seconds=1)) == SHOWN.items
    assert SHOWN.live(UNTIL) == ()
