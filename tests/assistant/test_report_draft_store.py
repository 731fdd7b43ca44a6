"""A payment report being read over several turns is kept in the conversation store, so the
replica that takes the next turn continues the same draft (SQLite and PostgreSQL alike)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from billing_toolkit.assistant.store import (
    Conversation,
    ConversationState,
    SqlConversationStore,
    open_conversation_store,
)
from billing_toolkit.assistant.store.model import ReportDraft
from billing_toolkit.assistant.store.report_draft_column import decode, encode
from tests.assistant.test_store import PHONE, old_store

UNTIL = datetime(2026, 11, 10, 13, 30, tzinfo=UTC)
DRAFT = ReportDraft(
    method="pago_movil",
    amount="1310.40",
    currency="VES",
    reference="0045127",
    asked="bank",
    until=UNTIL,
)


def test_a_draft_round_trips_with_what_was_asked(any_store: SqlConversationStore) -> None:
    saved = any_store.save(Conversation("fibranet", PHONE, report_draft=DRAFT))
    stored = any_store.get("fibranet", PHONE)
    assert stored == saved and stored.report_draft == DRAFT
    in_state = any_store.in_state("fibranet", ConversationState.BOT)
    assert [w.conversation.report_draft for w in in_state] == [DRAFT]
    any_store.save(Conversation("fibranet", PHONE))
    assert any_store.get("fibranet", PHONE).report_draft is None


def test_a_store_made_before_drafts_gains_the_column(tmp_path: Path) -> None:
    path = old_store(tmp_path / "old.sqlite3", "referents")
    store = open_conversation_store(f"sqlite:///{path}")
    try:
        assert store.get("fibranet", PHONE).report_draft is None
        store.save(Conversation("fibranet", PHONE, report_draft=DRAFT))
        assert store.get("fibranet", PHONE).report_draft == DRAFT
    finally:
        store.close()


@pytest.mark.parametrize(
    "text",
    ["not json", '{"method": "zelle"}', encode(DRAFT).replace('"VES"', "12")],  # type: ignore[union-attr]
)
def test_an_unreadable_draft_is_no_draft(text: str) -> None:
    assert decode(text) is None


def test_a_draft_without_an_expiry_is_not_stored_and_an_expired_one_is_not_live() -> None:
    assert encode(ReportDraft(method="zelle")) is None
    assert DRAFT.live(UNTIL - timedelta(seconds=1)) and not DRAFT.live(UNTIL)
