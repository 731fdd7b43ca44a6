"""A reply is marked `sending` before the Graph API gets it, so a crash in between is told
apart from a reply never sent: the first is sent once more and marked, never a third time."""

from __future__ import annotations

from typing import Any

import pytest

from billing_toolkit.assistant.channel.service import RESENT_AFTER_CRASH
from billing_toolkit.assistant.store import (
    OutboundStatus,
    SqlConversationStore,
    open_conversation_store,
)
from tests.assistant.assistant_fakes import MARIA_PHONE, SteppingClock
from tests.channel.conftest import Harness, RunService
from tests.channel.whatsapp import FIBRA_NUMBER

REPLY = "Hola, ¿en qué te ayudo?"


@pytest.fixture
def file_store(tmp_path) -> SqlConversationStore:  # type: ignore[no-untyped-def]
    return open_conversation_store(f"sqlite:///{tmp_path / 'bot.sqlite3'}", now=SteppingClock())


def cut_short(store: SqlConversationStore, resends: int = 0) -> None:
    """What a kill -9 leaves after the Graph API was handed a reply (and, `resends` times,
    handed it again after a restart) and before the answer was recorded."""
    received = store.messages.receive(
        "fibranet", FIBRA_NUMBER, "wamid.CUT", MARIA_PHONE, "text", "hola"
    )
    assert received is not None
    [reply] = store.messages.close(received, [REPLY])
    for _ in range(resends + 1):
        marked = store.messages.intend(reply)
        assert marked is not None
        reply = marked


def replies(store: SqlConversationStore) -> list[dict[str, Any]]:
    return [
        {"status": m.status, "text": m.text, "note": m.note}
        for m in store.messages.history("fibranet", MARIA_PHONE)
        if m.direction == "out"
    ]


def test_the_store_says_sending_while_the_graph_api_has_the_reply(harness: Harness) -> None:
    seen: list[list[str]] = []
    harness.graph.on_request = lambda: seen.append(
        [m.status.value for m in harness.store.messages.unsettled()]
    )
    harness.say(MARIA_PHONE, "¿Cuál es mi saldo?")
    assert seen == [["sending"]]
    assert harness.store.messages.unsettled() == []
    assert [r["status"] for r in replies(harness.store)] == ["sent"]


def test_a_reply_cut_short_in_its_send_is_sent_once_more_and_marked(
    run_service: RunService, file_store: SqlConversationStore
) -> None:
    cut_short(file_store)
    with run_service(store=file_store) as harness:
        harness.drain()
        assert harness.graph.texts_to(MARIA_PHONE) == [REPLY]
        [entry] = [
            m
            for m in harness.agent("GET", f"/handoff/conversations/{MARIA_PHONE}").json()[
                "messages"
            ]
            if m["direction"] == "out"
        ]
    assert entry["status"] == "sent" and entry["note"] == RESENT_AFTER_CRASH
    assert file_store.messages.unsettled() == [] and file_store.messages.pending() == []


def test_a_reply_cut_short_twice_is_handed_to_a_person_not_sent_again(
    run_service: RunService, file_store: SqlConversationStore
) -> None:
    cut_short(file_store, resends=1)
    with run_service(store=file_store) as harness:
        harness.drain()
        assert harness.graph.sent == []
        [listed] = harness.agent("GET", "/handoff/conversations").json()["conversations"]
    assert listed["escalation"]["reason"] == "DELIVERY_FAILED"
    assert "may or may not have reached" in listed["escalation"]["context"]["error"]
    [reply] = replies(file_store)
    assert (reply["status"], reply["text"]) == (OutboundStatus.FAILED.value, REPLY)


def test_a_reply_never_handed_over_is_sent_without_a_mark(
    run_service: RunService, file_store: SqlConversationStore
) -> None:
    received = file_store.messages.receive(
        "fibranet", FIBRA_NUMBER, "wamid.EARLY", MARIA_PHONE, "text", "hola"
    )
    assert received is not None
    file_store.messages.close(received, [REPLY])
    with run_service(store=file_store) as harness:
        harness.drain()
        assert harness.graph.texts_to(MARIA_PHONE) == [REPLY]
    assert replies(file_store) == [{"status": "sent", "text": REPLY, "note": None}]


def test_marks_and_results_are_kept_on_every_backend(backend_store: SqlConversationStore) -> None:
    cut_short(backend_store)
    [sending] = backend_store.messages.unsettled()
    assert sending.status is OutboundStatus.SENDING
    assert backend_store.messages.intend(sending) is not None
    assert backend_store.messages.intend(sending) is None, "a stale record is not marked twice"
    [resending] = backend_store.messages.unsettled()
    settled = backend_store.messages.settle(
        resending,
        OutboundStatus.SENT,
        attempts=2,
        error=RESENT_AFTER_CRASH,
        provider_id="wamid.OUT1",
    )
    assert (settled.status, settled.provider_id) == (OutboundStatus.SENT, "wamid.OUT1")
    assert backend_store.messages.unsettled() == [] and backend_store.messages.pending() == []
