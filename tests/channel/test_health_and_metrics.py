"""`/healthz`, `/readyz` and `/metrics`: what an operator's probes and alerts read."""

from __future__ import annotations

import re

from billing_toolkit.assistant.channel import TenantChannel, TurnHandler
from billing_toolkit.assistant.store import SqlConversationStore
from tests.assistant.assistant_fakes import JOSE_PHONE, MARIA_PHONE
from tests.channel.conftest import Harness, RunService
from tests.channel.whatsapp import FIBRA_NUMBER, delivery, text_message


def sample(metrics: str, name: str) -> float:
    """The value of one sample line (`name` with its labels, exactly as exposed)."""
    match = re.search(rf"^{re.escape(name)} (\S+)$", metrics, re.MULTILINE)
    assert match is not None, f"{name} is not exposed"
    return float(match.group(1))


def test_healthz_answers_while_the_process_runs(harness: Harness) -> None:
    assert harness.client.get("/healthz").json() == {"status": "ok"}


def test_readyz_is_ready_with_the_store_and_every_worker(harness: Harness) -> None:
    ready = harness.client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["workers"] == 3  # 2 workers + sweeper


def test_readyz_is_not_ready_when_a_worker_stopped(harness: Harness) -> None:
    service = harness.client.app.state.channel  # type: ignore[union-attr]
    assert harness.client.portal is not None  # set while the client is open
    harness.client.portal.call(_cancel_one, service)
    refused = harness.client.get("/readyz")
    assert refused.status_code == 503
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "workers_stopped"


async def _cancel_one(service: object) -> None:
    import asyncio

    task = service._tasks[0]  # type: ignore[attr-defined]
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


def test_readyz_is_not_ready_when_the_store_does_not_answer(
    run_service: RunService, tmp_path: object
) -> None:
    from billing_toolkit.assistant.store import open_conversation_store

    store = open_conversation_store(f"sqlite:///{tmp_path}/gone.sqlite3")
    with run_service(store=store) as harness:
        store.close()
        refused = harness.client.get("/readyz")
        assert refused.status_code == 503 and refused.json()["code"] == "store_unavailable"
        assert harness.client.get("/metrics").status_code == 200, "counters still scrape"


def test_metrics_count_deliveries_turns_and_sends_without_personal_data(
    harness: Harness,
) -> None:
    harness.say(MARIA_PHONE, "¿Cuál es mi saldo?")
    harness.say(JOSE_PHONE, "Quiero hablar con un asesor")
    harness.post(delivery(text_message(MARIA_PHONE, "hola")), signature="sha256=00")
    harness.post(b"{}" * 10, secret="wrong")
    metrics = harness.client.get("/metrics")
    assert metrics.headers["content-type"].startswith("text/plain")
    text = metrics.text
    assert sample(text, 'assistant_webhook_deliveries_total{status="200"}') == 2
    assert sample(text, 'assistant_webhook_deliveries_total{status="401"}') == 2
    assert sample(text, "assistant_webhook_ack_seconds_count") == 4
    assert sample(text, 'assistant_webhook_messages_total{result="stored"}') == 2
    assert sample(text, 'assistant_turns_total{action="reply",reason=""}') == 1
    assert sample(text, 'assistant_turns_total{action="escalate",reason="USER_REQUEST"}') == 1
    assert sample(text, "assistant_turn_duration_seconds_count") == 2
    assert sample(text, 'assistant_sends_total{result="sent"}') == 2
    assert sample(text, "assistant_send_attempts_total") == 2
    assert sample(text, "assistant_queue_unclaimed_messages") == 0
    assert sample(text, "assistant_lease_takeovers_total") == 0
    assert sample(text, "assistant_workers_alive") == 3
    for personal in (MARIA_PHONE.lstrip("+"), JOSE_PHONE.lstrip("+"), "saldo", "asesor"):
        assert personal not in text


def test_metrics_show_a_failed_send_and_a_failed_turn(run_service: RunService) -> None:
    class Exploding:
        def handle(self, phone: str, message: str, *, message_id: str | None = None) -> object:
            raise RuntimeError("narrator crashed")

    def factory(tenant: TenantChannel, store: SqlConversationStore) -> TurnHandler:
        return Exploding()  # type: ignore[return-value]

    with run_service(factory=factory) as harness:
        harness.graph.failures = [500, 500, 500]
        harness.say(MARIA_PHONE, "hola")
        text = harness.client.get("/metrics").text
    assert sample(text, 'assistant_turns_total{action="failed",reason="PROCESSING_FAILED"}') == 1
    assert sample(text, 'assistant_sends_total{result="failed"}') == 1
    assert sample(text, "assistant_send_attempts_total") == 3


def test_metrics_show_the_backlog_and_the_age_of_its_oldest_message(harness: Harness) -> None:
    """Stored by a replica that died before its worker saw it: the queue an alert watches."""
    harness.store.messages.receive(
        "fibranet", FIBRA_NUMBER, "wamid.WAITING", MARIA_PHONE, "text", "hola"
    )
    text = harness.client.get("/metrics").text
    assert sample(text, "assistant_queue_unclaimed_messages") == 1
    assert sample(text, "assistant_queue_oldest_unclaimed_age_seconds") > 0
