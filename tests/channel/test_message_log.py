"""The store's additions for the channel, identical on SQLite and PostgreSQL: the message log
(idempotent intake, claim, close, recovery, delivery), hand-offs found outside a turn, and
the list of conversations by state."""

from __future__ import annotations

import threading

from billing_toolkit.assistant.store import (
    Conversation,
    ConversationState,
    InboundRecord,
    InboundStatus,
    OutboundStatus,
    SqlConversationStore,
)
from billing_toolkit.assistant.vocabulary.escalation import (
    EscalationContext,
    EscalationReason,
    escalate,
)

PHONE = "+584121234567"
OTHER = "+584141112233"
NUMBER = "100000000000001"


def receive(
    store: SqlConversationStore,
    message_id: str,
    text: str = "hola",
    phone: str = PHONE,
    tenant: str = "fibranet",
) -> InboundRecord | None:
    """The store's answer: the record, or None for a redelivery (some tests expect that)."""
    return store.messages.receive(tenant, NUMBER, message_id, phone, "text", text)


def test_a_message_is_stored_once_per_tenant(backend_store: SqlConversationStore) -> None:
    first = receive(backend_store, "wamid.1")
    assert first is not None and first.status is InboundStatus.RECEIVED and first.attempts == 0
    assert receive(backend_store, "wamid.1", text="changed") is None
    assert receive(backend_store, "wamid.1", tenant="llanolink") is not None
    [entry] = backend_store.messages.history("fibranet", PHONE)
    assert entry.text == "hola"


def test_claim_counts_attempts_and_a_closed_message_cannot_be_claimed(
    backend_store: SqlConversationStore,
) -> None:
    receive(backend_store, "wamid.1")
    first = backend_store.messages.claim("fibranet", "wamid.1")
    again = backend_store.messages.claim("fibranet", "wamid.1")
    assert first is not None and again is not None
    assert (first.status, first.attempts, again.attempts) == (InboundStatus.PROCESSING, 1, 2)
    [reply] = backend_store.messages.close(again, ["¡Hola!"])
    assert (reply.status, reply.reply_to, reply.channel_id) == (
        OutboundStatus.PENDING,
        "wamid.1",
        NUMBER,
    )
    assert backend_store.messages.claim("fibranet", "wamid.1") is None
    assert backend_store.messages.claim("fibranet", "wamid.unknown") is None


def test_recovery_sees_what_is_unfinished_oldest_first(
    backend_store: SqlConversationStore,
) -> None:
    for message_id in ("wamid.1", "wamid.2", "wamid.3"):
        receive(backend_store, message_id)
    backend_store.messages.claim("fibranet", "wamid.2")
    done = backend_store.messages.claim("fibranet", "wamid.3")
    assert done is not None
    backend_store.messages.close(done, ["a", "b"])
    assert [m.message_id for m in backend_store.messages.unfinished()] == ["wamid.1", "wamid.2"]
    assert [m.text for m in backend_store.messages.pending()] == ["a", "b"]


def test_a_failed_message_is_closed_with_its_error(backend_store: SqlConversationStore) -> None:
    receive(backend_store, "wamid.1")
    claimed = backend_store.messages.claim("fibranet", "wamid.1")
    assert claimed is not None
    backend_store.messages.close(claimed, [], error="RuntimeError: boom")
    assert backend_store.messages.unfinished() == []
    assert backend_store.messages.history("fibranet", PHONE)[0].status == "failed"


def test_settling_a_reply_records_the_outcome(backend_store: SqlConversationStore) -> None:
    queued = backend_store.messages.queue("fibranet", NUMBER, PHONE, "Hola")
    sent = backend_store.messages.settle(
        queued, OutboundStatus.SENT, attempts=2, provider_id="wamid.OUT"
    )
    assert (sent.status, sent.attempts, sent.provider_id, sent.reply_to) == (
        OutboundStatus.SENT,
        2,
        "wamid.OUT",
        None,
    )
    assert backend_store.messages.pending() == []


def test_the_history_interleaves_both_directions_per_conversation(
    backend_store: SqlConversationStore,
) -> None:
    stored = receive(backend_store, "w1", "uno")
    assert stored is not None
    first = backend_store.messages.claim("fibranet", stored.message_id)
    receive(backend_store, "w-other", "otro", phone=OTHER)
    assert first is not None
    backend_store.messages.close(first, ["respuesta"])
    receive(backend_store, "w2", "dos")
    history = backend_store.messages.history("fibranet", PHONE)
    assert [(e.direction, e.text) for e in history] == [
        ("in", "uno"),
        ("out", "respuesta"),
        ("in", "dos"),
    ]
    assert backend_store.messages.history("llanolink", PHONE) == []


def test_a_handoff_outside_a_turn_waits_unless_a_person_has_it(
    backend_store: SqlConversationStore,
) -> None:
    record = backend_store.record_handoff(
        "fibranet", PHONE, "DELIVERY_FAILED", "es", "en", {"attempts": 3}
    )
    assert record.context == {"attempts": 3}
    assert backend_store.get("fibranet", PHONE).state is ConversationState.WAITING_FOR_HUMAN
    backend_store.assign_agent("fibranet", OTHER, "ana")
    backend_store.record_handoff("fibranet", OTHER, "DELIVERY_FAILED", "es", "en", {})
    assert backend_store.get("fibranet", OTHER).state is ConversationState.HUMAN_ACTIVE
    assert [e.reason for e in backend_store.escalations("fibranet", OTHER)] == ["DELIVERY_FAILED"]


def test_conversations_by_state_with_their_latest_escalation(
    backend_store: SqlConversationStore,
) -> None:
    for reason in (EscalationReason.NO_CONTEXT, EscalationReason.USER_REQUEST):
        backend_store.record_escalation(
            Conversation("fibranet", PHONE),
            escalate(reason, EscalationContext(phone=PHONE, message="x")),
        )
    backend_store.save(Conversation("fibranet", OTHER))
    backend_store.record_escalation(
        Conversation("llanolink", OTHER),
        escalate(EscalationReason.TOOL_ERROR, EscalationContext(phone=OTHER, message="y")),
    )
    [waiting] = backend_store.in_state("fibranet", ConversationState.WAITING_FOR_HUMAN)
    assert waiting.conversation.phone == PHONE
    assert waiting.latest_escalation is not None
    assert waiting.latest_escalation.reason == "USER_REQUEST"
    [bot] = backend_store.in_state("fibranet", ConversationState.BOT)
    assert (bot.conversation.phone, bot.latest_escalation) == (OTHER, None)


def test_threads_sharing_the_store_do_not_break_each_others_transactions(
    backend_store: SqlConversationStore,
) -> None:
    """Worker threads run turns while the event loop serves the console, on one connection."""
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        try:
            for n in range(25):
                phone = f"+58412{worker:03d}{n:04d}"
                backend_store.record_handoff("fibranet", phone, "DELIVERY_FAILED", "es", "en", {})
                backend_store.assign_agent("fibranet", phone, f"agent-{worker}")
                receive(backend_store, f"w{worker}-{n}", phone=phone)
        except BaseException as exc:  # noqa: BLE001 — reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert len(backend_store.in_state("fibranet", ConversationState.HUMAN_ACTIVE)) == 100
    assert len(backend_store.messages.unfinished()) == 100
