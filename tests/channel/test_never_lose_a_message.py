"""No message is lost: failed sends are retried then handed to a person, a failing turn is
handed to a person, and whatever a crash left unfinished is done at the next start."""

from __future__ import annotations

import httpx
import pytest

from billing_toolkit.assistant.channel import TenantChannel, TurnHandler
from billing_toolkit.assistant.store import (
    ConversationState,
    InboundStatus,
    OutboundStatus,
    SqlConversationStore,
    open_conversation_store,
)
from tests.assistant.assistant_fakes import MARIA_PHONE, SteppingClock
from tests.channel.conftest import Factory, Harness, RunService
from tests.channel.whatsapp import FIBRA_NUMBER, RecordedSleep


def waiting_reasons(harness: Harness) -> list[tuple[str, str]]:
    listed = harness.agent("GET", "/handoff/conversations").json()["conversations"]
    return [(c["phone"], c["escalation"]["reason"]) for c in listed]


class TestSending:
    def test_a_send_that_fails_for_a_while_is_retried_with_growing_waits(
        self, harness: Harness, sleep: RecordedSleep
    ) -> None:
        harness.graph.failures = [503, httpx.ConnectError]
        harness.say(MARIA_PHONE, "¿Cuál es mi saldo?")
        assert len(harness.graph.requests) == 3
        assert len(harness.graph.sent) == 1
        assert len(sleep.waits) == 2
        assert 0.5 <= sleep.waits[0] <= 1.0 and 1.0 <= sleep.waits[1] <= 2.0
        [reply] = [
            e
            for e in harness.store.messages.history("fibranet", MARIA_PHONE)
            if e.direction == "out"
        ]
        assert reply.status == OutboundStatus.SENT.value
        assert harness.store.get("fibranet", MARIA_PHONE).state is ConversationState.BOT

    def test_a_send_that_keeps_failing_is_handed_to_a_person(
        self, harness: Harness, sleep: RecordedSleep
    ) -> None:
        harness.graph.failures = [500, 500, 500]
        harness.say(MARIA_PHONE, "¿Cuál es mi saldo?")
        assert len(harness.graph.requests) == 3, "the budget is three attempts"
        assert len(sleep.waits) == 2
        assert waiting_reasons(harness) == [(MARIA_PHONE, "DELIVERY_FAILED")]
        [listed] = harness.agent("GET", "/handoff/conversations").json()["conversations"]
        summary = listed["escalation"]["agent_summary"]
        assert "USD 38,28" in summary["es"] and "after 3 attempts" in summary["en"]
        assert "HTTP 500 (code 131000)" in listed["escalation"]["context"]["error"]

    def test_a_rejected_send_is_not_retried(self, harness: Harness, sleep: RecordedSleep) -> None:
        harness.graph.failures = [400]
        harness.say(MARIA_PHONE, "¿Cuál es mi saldo?")
        assert len(harness.graph.requests) == 1 and sleep.waits == []
        assert waiting_reasons(harness) == [(MARIA_PHONE, "DELIVERY_FAILED")]

    def test_retry_after_is_honoured(self, harness: Harness, sleep: RecordedSleep) -> None:
        harness.graph.failures = [429]
        harness.graph.retry_after = "7"
        harness.say(MARIA_PHONE, "¿Cuál es mi saldo?")
        assert sleep.waits == [7.0]
        assert len(harness.graph.sent) == 1


class Exploding:
    def handle(self, phone: str, message: str, *, message_id: str | None = None) -> object:
        raise RuntimeError("narrator crashed")


def test_a_turn_that_raises_tells_the_subscriber_and_hands_over(
    run_service: RunService,
) -> None:
    def factory(tenant: TenantChannel, store: SqlConversationStore) -> TurnHandler:
        return Exploding()  # type: ignore[return-value]

    with run_service(factory=factory) as harness:
        harness.say(MARIA_PHONE, "¿Cuál es mi saldo?")
        assert harness.graph.texts_to(MARIA_PHONE) == [
            "No pude procesar tu mensaje. Una persona de nuestro equipo te responderá por aquí."
        ]
        assert waiting_reasons(harness) == [(MARIA_PHONE, "PROCESSING_FAILED")]
        inbound = harness.store.messages.history("fibranet", MARIA_PHONE)[0]
        assert inbound.status == InboundStatus.FAILED.value


class TestRestart:
    @pytest.fixture
    def file_store(self, tmp_path) -> SqlConversationStore:  # type: ignore[no-untyped-def]
        return open_conversation_store(f"sqlite:///{tmp_path / 'bot.sqlite3'}", now=SteppingClock())

    def test_a_message_stored_but_never_processed_is_processed_at_start(
        self, run_service: RunService, file_store: SqlConversationStore
    ) -> None:
        """The previous run stored and acknowledged the message, then died before its turn."""
        file_store.messages.receive(
            "fibranet",
            FIBRA_NUMBER,
            "wamid.BEFORE-CRASH",
            MARIA_PHONE,
            "text",
            "¿Cuál es mi saldo?",
        )
        with run_service(store=file_store) as harness:
            harness.drain()
            [reply] = harness.graph.texts_to(MARIA_PHONE)
            assert "USD 38,28" in reply
        [inbound, outbound] = file_store.messages.history("fibranet", MARIA_PHONE)
        assert (inbound.status, outbound.status) == ("done", "sent")
        assert file_store.messages.unfinished() == []

    def test_a_turn_cut_short_by_a_crash_is_run_again(
        self, run_service: RunService, file_store: SqlConversationStore
    ) -> None:
        file_store.messages.receive(
            "fibranet", FIBRA_NUMBER, "wamid.MID-TURN", MARIA_PHONE, "text", "What is my balance?"
        )
        file_store.messages.claim("fibranet", "wamid.MID-TURN")
        with run_service(store=file_store) as harness:
            harness.drain()
            assert len(harness.graph.texts_to(MARIA_PHONE)) == 1
        assert file_store.messages.history("fibranet", MARIA_PHONE)[0].status == "done"

    def test_a_message_that_crashed_every_turn_goes_to_a_person(
        self, run_service: RunService, file_store: SqlConversationStore, factory: Factory
    ) -> None:
        file_store.messages.receive(
            "fibranet", FIBRA_NUMBER, "wamid.POISON", MARIA_PHONE, "text", "¿Cuál es mi saldo?"
        )
        for _ in range(3):
            file_store.messages.claim("fibranet", "wamid.POISON")
        with run_service(store=file_store) as harness:
            harness.drain()
            assert waiting_reasons(harness) == [(MARIA_PHONE, "PROCESSING_FAILED")]
            assert len(harness.graph.texts_to(MARIA_PHONE)) == 1

    def test_a_reply_stored_but_not_sent_is_sent_at_start(
        self, run_service: RunService, file_store: SqlConversationStore
    ) -> None:
        received = file_store.messages.receive(
            "fibranet", FIBRA_NUMBER, "wamid.SENT-LATE", MARIA_PHONE, "text", "hola"
        )
        assert received is not None
        file_store.messages.close(received, ["Hola, ¿en qué te ayudo?"])
        with run_service(store=file_store) as harness:
            harness.drain()
            assert harness.graph.texts_to(MARIA_PHONE) == ["Hola, ¿en qué te ayudo?"]
        assert file_store.messages.pending() == []
