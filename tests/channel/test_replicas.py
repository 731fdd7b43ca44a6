"""Several replicas on one store: one turn at a time per conversation, in arrival order, and a
dead replica's work finished by another once its lease expires (time from a shared clock)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from billing_toolkit.assistant.channel.service import RESENT_AFTER_CRASH, ChannelService
from billing_toolkit.assistant.channel.turns import TurnRunner
from billing_toolkit.assistant.store import (
    ConversationState,
    SqlConversationStore,
    open_conversation_store,
)
from tests.assistant.assistant_fakes import ANA_PHONE, JOSE_PHONE, MARIA_PHONE
from tests.channel.conftest import Harness, RunService
from tests.channel.replicas import SharedClock, echo_factory, overlapping
from tests.channel.whatsapp import FIBRA_NUMBER, delivery, text_message

LEASE = 30.0


@pytest.fixture(params=["sqlite-file", "postgresql"])
def shared_dsn(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_dsn"))
    return f"sqlite:///{tmp_path / 'shared.sqlite3'}"


@pytest.fixture
def clock() -> SharedClock:
    return SharedClock()


def connections(dsn: str, clock: SharedClock) -> Iterator[list[SqlConversationStore]]:
    """Two connections to one store, as two replicas have."""
    stores = [open_conversation_store(dsn, now=clock) for _ in range(2)]
    yield stores
    for store in stores:
        store.close()


@pytest.fixture
def two_stores(shared_dsn: str, clock: SharedClock) -> Iterator[list[SqlConversationStore]]:
    yield from connections(shared_dsn, clock)


@pytest.fixture
def pg_stores(pg_dsn: str, clock: SharedClock) -> Iterator[list[SqlConversationStore]]:
    yield from connections(pg_dsn, clock)


def test_a_lease_is_one_holders_until_it_expires(
    two_stores: list[SqlConversationStore], clock: SharedClock
) -> None:
    first, second = (store.coordination for store in two_stores)
    assert first.acquire("fibranet", MARIA_PHONE, "replica-a/1", LEASE) is not None
    assert second.acquire("fibranet", MARIA_PHONE, "replica-b/1", LEASE) is None
    assert second.acquire("fibranet", JOSE_PHONE, "replica-b/2", LEASE) is not None, (
        "another conversation is free"
    )
    clock.advance(LEASE + 1)
    lease = second.acquire("fibranet", MARIA_PHONE, "replica-b/3", LEASE)
    assert lease is not None and lease.taken_over
    assert not first.renew("fibranet", MARIA_PHONE, "replica-a/1", LEASE), (
        "the expired holder learns it lost the conversation"
    )
    first.release("fibranet", MARIA_PHONE, "replica-a/1")
    assert first.acquire("fibranet", MARIA_PHONE, "replica-a/2", LEASE) is None, (
        "a stale holder's release does not free another's lease"
    )


def dead_replica_left_work(store: SqlConversationStore) -> None:
    """What a replica killed mid-way leaves: a reply handed to the Graph API (`sending`), the
    next message in its turn (`processing`), and the conversation's lease."""
    earlier = store.messages.receive(
        "fibranet", FIBRA_NUMBER, "wamid.D0", MARIA_PHONE, "text", "uno"
    )
    assert earlier is not None
    [reply] = store.messages.close(earlier, ["re: uno"])
    assert store.messages.intend(reply) is not None
    store.messages.receive("fibranet", FIBRA_NUMBER, "wamid.D1", MARIA_PHONE, "text", "dos")
    store.messages.claim("fibranet", "wamid.D1")
    assert store.coordination.acquire("fibranet", MARIA_PHONE, "dead/1", LEASE) is not None


def test_a_dead_replicas_conversation_is_finished_by_another_after_its_lease(
    run_service: RunService, pg_stores: list[SqlConversationStore], clock: SharedClock
) -> None:
    dead, alive = pg_stores
    dead_replica_left_work(dead)
    with run_service(store=alive, factory=echo_factory) as harness:
        harness.drain()
        assert harness.graph.sent == [], "the lease is still the other replica's"
        clock.advance(LEASE + 1)
        harness.client.portal.call(harness.client.app.state.channel.sweep)
        harness.drain()
        assert harness.graph.texts_to(MARIA_PHONE) == ["re: uno", "re: dos"]
        metrics = harness.client.get("/metrics").text
    history = alive.messages.history("fibranet", MARIA_PHONE)
    assert [(e.direction, e.status, e.note) for e in history] == [
        ("in", "done", None),
        ("out", "sent", RESENT_AFTER_CRASH),
        ("in", "done", None),
        ("out", "sent", None),
    ]
    assert [m.attempts for m in alive.messages.unfinished()] == []
    assert "assistant_lease_takeovers_total 1.0" in metrics


def test_a_message_that_killed_every_replica_ends_processing_failed(
    run_service: RunService, pg_stores: list[SqlConversationStore], clock: SharedClock
) -> None:
    dead, alive = pg_stores
    dead.messages.receive("fibranet", FIBRA_NUMBER, "wamid.POISON", MARIA_PHONE, "text", "x")
    for attempt in range(3):
        dead.messages.claim("fibranet", "wamid.POISON")
        dead.coordination.acquire("fibranet", MARIA_PHONE, f"dead/{attempt}", LEASE)
        clock.advance(LEASE + 1)
    with run_service(store=alive, factory=echo_factory) as harness:
        harness.drain()
        assert harness.graph.texts_to(MARIA_PHONE) == [
            "No pude procesar tu mensaje. Una persona de nuestro equipo te responderá por aquí."
        ]
    assert alive.get("fibranet", MARIA_PHONE).state is ConversationState.WAITING_FOR_HUMAN
    assert [e.reason for e in alive.escalations("fibranet", MARIA_PHONE)] == ["PROCESSING_FAILED"]


def test_two_replicas_answer_each_subscriber_in_order_one_turn_at_a_time(
    run_service: RunService, pg_stores: list[SqlConversationStore]
) -> None:
    phones = [MARIA_PHONE, JOSE_PHONE, ANA_PHONE]
    with (
        run_service(store=pg_stores[0], factory=echo_factory) as first,
        run_service(store=pg_stores[1], factory=echo_factory) as second,
    ):
        replicas = [first, second]
        for n in range(6):
            for k, phone in enumerate(phones):
                replicas[(n + k) % 2].post(delivery(text_message(phone, f"{phone[-2:]}-{n}")))
        settle(replicas)
        for phone in phones:
            assert first.graph.texts_to(phone) == [f"re: {phone[-2:]}-{n}" for n in range(6)]
    coordination = pg_stores[0].coordination
    assert len(coordination.turns()) == 18
    assert overlapping(coordination.turns()) == []
    assert {span.holder for span in coordination.turns()} == {
        first.client.app.state.channel.replica,
        second.client.app.state.channel.replica,
    }


def settle(replicas: list[Harness]) -> None:
    """Drain every replica until the store holds no work: a hint one replica dropped (the
    other had the conversation) is picked up by the other when it gives the lease up."""
    store = replicas[0].store
    for _ in range(20):
        for replica in replicas:
            replica.drain()
        if (
            not store.messages.unfinished()
            and not store.messages.pending()
            and not store.messages.unsettled()
        ):
            return
    pytest.fail("the replicas did not finish the work")


def test_an_agents_takeover_waits_for_a_turn_on_another_replica(
    pg_stores: list[SqlConversationStore], config: Any, factory: Any
) -> None:
    busy, agents = pg_stores
    busy.coordination.acquire("fibranet", MARIA_PHONE, "busy/1", LEASE)
    events: list[str] = []

    async def pause(seconds: float) -> None:
        events.append("waited")
        if events.count("waited") == 3:
            busy.coordination.release("fibranet", MARIA_PHONE, "busy/1")

    runner = TurnRunner(agents, factory, {t.tenant: t for t in config.tenants})
    service = ChannelService(config, agents, runner, None, pause=pause)  # type: ignore[arg-type]

    async def take_over() -> None:
        async with service.conversation_lock("fibranet", MARIA_PHONE):
            events.append("held")
            assert busy.coordination.acquire("fibranet", MARIA_PHONE, "busy/2", LEASE) is None

    asyncio.run(take_over())
    assert events == ["waited", "waited", "waited", "held"]
    assert busy.coordination.acquire("fibranet", MARIA_PHONE, "busy/3", LEASE) is not None, (
        "the agent's lease is given up after the take-over"
    )


def test_on_sqlite_a_lease_left_by_a_dead_process_does_not_delay_the_restart(
    run_service: RunService, tmp_path: Any
) -> None:
    store = open_conversation_store(f"sqlite:///{tmp_path / 'bot.sqlite3'}", now=SharedClock())
    store.messages.receive("fibranet", FIBRA_NUMBER, "wamid.LEFT", MARIA_PHONE, "text", "hola")
    store.coordination.acquire("fibranet", MARIA_PHONE, "previous-run/1", LEASE)
    with run_service(store=store, factory=echo_factory) as harness:
        harness.drain()
        assert harness.graph.texts_to(MARIA_PHONE) == ["re: hola"]
    store.close()


def test_replicas_starting_together_create_the_schema_once(pg_dsn: str) -> None:
    """Without the schema lock PostgreSQL fails the loser of two simultaneous `CREATE TABLE
    IF NOT EXISTS` on a duplicate catalog key: a replica that does not start."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(6) as pool:
        stores = list(pool.map(lambda _: open_conversation_store(pg_dsn), range(6)))
    for store in stores:
        store.close()


def test_a_replica_that_stalled_past_its_lease_closes_nothing(
    two_stores: list[SqlConversationStore],
) -> None:
    """It claimed the message, stalled; another replica claimed it again: only the newer
    attempt's replies are queued, so the subscriber is not answered twice."""
    stalled, taker = two_stores
    stalled.messages.receive("fibranet", FIBRA_NUMBER, "wamid.STALL", MARIA_PHONE, "text", "x")
    first = stalled.messages.claim("fibranet", "wamid.STALL")
    second = taker.messages.claim("fibranet", "wamid.STALL")
    assert first is not None and second is not None
    assert stalled.messages.close(first, ["re: x (late)"]) == []
    assert [r.text for r in taker.messages.close(second, ["re: x"])] == ["re: x"]
    assert taker.messages.close(second, ["again"]) == [], "a closed message stays closed"
    assert [m.text for m in taker.messages.outbound_of("fibranet", MARIA_PHONE)] == ["re: x"]
