"""End to end: signed WhatsApp deliveries → the service → the real pipeline (template narrator,
shipped knowledge base) → the billing simulator in-process (the `billing_sim` fixture) →
replies to the fake Graph API, and the agents' console over the same store. The pipelines are
composed exactly as `billing-assistant serve` composes them (`open_pipelines`), only the
billing transport is the in-process simulator instead of a socket.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from decimal import Decimal
from typing import Any

import pytest

from billing_toolkit.assistant.channel import ChannelConfig, parse_channel_config
from billing_toolkit.assistant.channel.cli import open_pipelines
from billing_toolkit.assistant.runtime import AssistantConfig
from billing_toolkit.assistant.store import SqlConversationStore
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.money import format_amount
from billing_toolkit.pytest_plugin import BillingSim
from tests.assistant.in_process_billing import billing_sim_runtime
from tests.channel.conftest import Factory, Harness, RunService
from tests.channel.whatsapp import CONFIG_DOCUMENT, ENVIRONMENT


@pytest.fixture
def config(billing_sim: BillingSim) -> ChannelConfig:
    """The test tenants, fibranet's billing key being the simulator's."""
    return parse_channel_config(
        CONFIG_DOCUMENT, {**ENVIRONMENT, "FIBRA_BILLING": billing_sim.api_key}
    )


@pytest.fixture
def factory(
    billing_sim: BillingSim, config: ChannelConfig, store: SqlConversationStore
) -> Iterator[Factory]:
    with ExitStack() as resources:
        runtime = resources.enter_context(billing_sim_runtime(billing_sim))
        base = AssistantConfig(base_url=billing_sim.url)
        yield open_pipelines(config, base, store, resources, **runtime)


@pytest.fixture
def live(run_service: RunService, factory: Factory) -> Iterator[Harness]:
    with run_service(factory=factory) as harness:
        yield harness


def test_a_conversation_through_the_webhook(live: Harness, billing_sim: BillingSim) -> None:
    customer = billing_sim.sample("open_invoice")
    phone = customer["phone"]
    answer = billing_sim.http.get(f"/v1/customers/{customer['account_number']}/balance")
    balance: dict[str, Any] = answer.raise_for_status().json()
    owed = format_amount(balance["net_balance"], balance["currency"], Language.SPANISH)
    assert Decimal(balance["net_balance"]) > 0

    live.say(phone, "Hola, ¿cuánto debo?")
    live.say(phone, "¿Cómo puedo pagar por Pago Móvil?")
    live.say(phone, "quiero hablar con un asesor")

    balance_reply, payment_reply, handoff_reply = live.graph.texts_to(phone)
    assert owed in balance_reply
    assert "Pago Móvil" in payment_reply
    assert handoff_reply.startswith("Claro, te comunico con un asesor")
    [waiting] = live.agent("GET", "/handoff/conversations").json()["conversations"]
    assert (waiting["phone"], waiting["escalation"]["reason"]) == (phone, "USER_REQUEST")
    assert "quiero hablar con un asesor" in waiting["escalation"]["agent_summary"]["es"]

    live.agent("POST", f"/handoff/conversations/{phone}/takeover", json={"agent_id": "ana"})
    live.say(phone, "¿sigue ahí?")
    assert len(live.graph.texts_to(phone)) == 3, "silent while the agent has it"
    live.agent("POST", f"/handoff/conversations/{phone}/release")
    live.say(phone, "¿cuánto debo?")
    assert owed in live.graph.texts_to(phone)[-1]


def test_an_outage_during_a_conversation_reaches_the_waiting_list(
    live: Harness, billing_sim: BillingSim
) -> None:
    phone = billing_sim.sample("credit")["phone"]
    live.say(phone, "¿Cuál es mi plan?")
    billing_sim.faults.add("http_500", operation="getBalance")
    live.say(phone, "¿cuánto debo?")

    plan_reply, outage_reply = live.graph.texts_to(phone)
    assert "PLN-" in plan_reply or "Mbps" in plan_reply
    assert "asesor" in outage_reply or "persona" in outage_reply
    [waiting] = live.agent("GET", "/handoff/conversations").json()["conversations"]
    escalation = waiting["escalation"]
    assert (waiting["phone"], escalation["reason"]) == (phone, "TOOL_ERROR")
    assert escalation["context"]["capability"] == "balance"
    assert "billing system" in escalation["agent_summary"]["en"]
