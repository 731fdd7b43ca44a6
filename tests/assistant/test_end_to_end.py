"""End-to-end turns: the real client, retriever and narrator against the in-process simulator
(the `billing_sim` fixture, one dataset shared by the module: the turns only read it).

What a subscriber would see: the API's own figures, "not found" for anything not theirs
(another customer's or another tenant's invoice reads exactly like one that does not exist),
and a hand-off when the billing system is down or when they ask for a person.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from billing_toolkit.assistant.knowledge.operator_profile import load_operator_profile
from billing_toolkit.assistant.retrieval import HybridRetriever, open_retriever
from billing_toolkit.assistant.runtime import Assistant, AssistantConfig, open_assistant
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.money import format_amount
from billing_toolkit.assistant.turn.result import Action
from billing_toolkit.assistant.vocabulary.escalation import EscalationReason
from billing_toolkit.pytest_plugin import BillingSim
from tests.assistant.in_process_billing import billing_sim_runtime

CUSTOMERS = 40
"""Small for speed, large enough that the planted near-duplicate invoices have two owners."""

pytestmark = pytest.mark.billing_sim(customers=CUSTOMERS, shared=True)


@pytest.fixture(scope="module")
def kb() -> Iterator[HybridRetriever]:
    with open_retriever() as retriever:
        yield retriever


@pytest.fixture
def tenant(billing_sim: BillingSim) -> dict[str, Any]:
    return billing_sim.tenant_info("fibranet")


@pytest.fixture
def api(billing_sim: BillingSim) -> httpx.Client:
    """The billing API as the operator sees it, to compare replies with."""
    return billing_sim.http


@pytest.fixture
def assistant(billing_sim: BillingSim, kb: HybridRetriever) -> Iterator[Assistant]:
    config = AssistantConfig(base_url=billing_sim.url, api_key=billing_sim.api_key)
    with (
        billing_sim_runtime(billing_sim) as runtime,
        open_assistant(config, retriever=kb, **runtime) as opened,
    ):
        yield opened


def _customer(tenant: dict[str, Any]) -> dict[str, Any]:
    return dict(tenant["samples"]["open_invoice"])


def test_the_balance_is_the_api_figure(
    assistant: Assistant, tenant: dict[str, Any], api: httpx.Client
) -> None:
    customer = _customer(tenant)
    balance = api.get(f"/v1/customers/{customer['account_number']}/balance").json()
    result = assistant.pipeline.handle(customer["phone"], "¿Cuánto debo?")
    assert result.action is Action.REPLY
    assert format_amount(balance["amount_due"], balance["currency"], Language.SPANISH) in str(
        result.reply
    )


def test_an_invoice_asked_by_its_exact_number(
    assistant: Assistant, tenant: dict[str, Any], api: httpx.Client
) -> None:
    customer = _customer(tenant)
    page = api.get(f"/v1/customers/{customer['account_number']}/invoices").json()
    invoice = page["data"][-1]
    result = assistant.pipeline.handle(
        customer["phone"], f"what is invoice {invoice['invoice_number']}?"
    )
    assert result.action is Action.REPLY
    assert invoice["invoice_number"] in str(result.reply)
    assert format_amount(invoice["total"], invoice["currency"], Language.ENGLISH) in str(
        result.reply
    )


def _owner_phone(api: httpx.Client, invoice_number: str) -> str:
    account = api.get(f"/v1/invoices/{invoice_number}").json()["account_number"]
    return str(api.get(f"/v1/customers/{account}").json()["phone"])


def test_a_transposed_invoice_number_is_not_found_never_the_neighbour(
    assistant: Assistant, tenant: dict[str, Any], api: httpx.Client
) -> None:
    pair = next(p for p in tenant["near_duplicate_invoices"] if p["kind"] == "transposition")
    phone = _owner_phone(api, pair["first"])
    assert _owner_phone(api, pair["second"]) != phone  # the dataset's promise
    result = assistant.pipeline.handle(phone, f"¿cuánto es la factura {pair['second']}?")
    assert result.action is Action.REPLY
    assert pair["second"] in str(result.reply) and pair["first"] not in str(result.reply)
    assert "No encontré" in str(result.reply)


def test_another_tenants_invoice_reads_exactly_like_a_missing_one(
    assistant: Assistant, tenant: dict[str, Any]
) -> None:
    phone = _customer(tenant)["phone"]
    foreign = tenant["other_tenant_invoice"]
    missing = "INV-1999-000001"
    other = assistant.pipeline.handle(phone, f"factura {foreign}")
    assistant.pipeline.store.release_to_bot("fibranet", phone)
    absent = assistant.pipeline.handle(phone, f"factura {missing}")
    assert other.action is absent.action is Action.REPLY
    assert str(other.reply).replace(foreign, "#") == str(absent.reply).replace(missing, "#")


def test_an_outage_escalates_tool_error(
    assistant: Assistant, tenant: dict[str, Any], billing_sim: BillingSim
) -> None:
    billing_sim.faults.add("http_503", operation="getBalance")
    result = assistant.pipeline.handle(_customer(tenant)["phone"], "how much do I owe?")
    assert result.action is Action.ESCALATE
    assert result.reason is EscalationReason.TOOL_ERROR
    assert result.escalation is not None and result.escalation.context.tool_error


def test_a_policy_question_is_answered_from_a_cited_chunk(
    assistant: Assistant, tenant: dict[str, Any]
) -> None:
    result = assistant.pipeline.handle(_customer(tenant)["phone"], "¿cómo pago con pago móvil?")
    assert result.action is Action.REPLY and result.citations
    assert "J-12345678-9" in str(result.reply)  # the operator's RIF may be quoted


def test_asking_for_a_person_escalates_and_the_bot_goes_quiet(
    assistant: Assistant, tenant: dict[str, Any]
) -> None:
    phone = _customer(tenant)["phone"]
    result = assistant.pipeline.handle(phone, "quiero hablar con un asesor")
    assert result.reason is EscalationReason.USER_REQUEST
    assert result.agent_summary is not None and result.agent_summary.en
    assert assistant.pipeline.handle(phone, "¿hola?").action is Action.SILENT


def test_the_knowledge_base_examples_are_nobodys(api: httpx.Client) -> None:
    """The articles' format examples must never reach a real record (they may be quoted to
    anyone)."""
    for example in load_operator_profile().format_examples:
        if example.startswith("INV-"):
            assert api.get(f"/v1/invoices/{example}").status_code == 404
        elif example.isdigit():
            assert api.get(f"/v1/customers/{example}").status_code == 404
        elif not example.startswith("PAY-"):
            lookup = api.get("/v1/customer-lookup", params={"national_id": example})
            assert lookup.status_code in (404, 422)


@pytest.mark.parametrize(
    ("question", "methods"),
    [
        ("¿cómo puedo pagar?", ("Pago Móvil", "transferencia bancaria", "Zelle", "efectivo")),
        ("¿dónde puedo pagar?", ("Pago Móvil", "transferencia bancaria", "Zelle", "efectivo")),
        ("how can I pay?", ("Pago Móvil", "bank transfer", "Zelle", "cash")),
    ],
)
def test_how_to_pay_names_every_method_not_one_of_them(
    assistant: Assistant, tenant: dict[str, Any], question: str, methods: tuple[str, ...]
) -> None:
    """It answered "…por cualquiera de estos medios." with no list, or the Zelle section
    alone (the other language's chunks, pulled in by the topic words, crowded out the
    article's opening)."""
    result = assistant.pipeline.handle(_customer(tenant)["phone"], question)
    assert result.action is Action.REPLY
    assert all(method in str(result.reply) for method in methods), result.reply
