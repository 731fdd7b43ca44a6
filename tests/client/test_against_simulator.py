"""Integration: capabilities against the live simulator (in-process), every fault kind injected.

Whatever the simulator does, a capability returns a ToolResult (never raises): data with
exact evidence, a business "no" that does not escalate, or an outage that does. The
simulator comes from the project's pytest plugin (`billing_sim`): one shared read-only
instance for the module, socket kinds emulated as the httpx error a client would see, and
virtual time, so delays, holds and back-off cost no real time.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator, Iterator
from decimal import Decimal
from typing import Any

import httpx
import pytest

from billing_toolkit.client import (
    AsyncBillingClient,
    AsyncCapabilities,
    BreakerConfig,
    CircuitBreaker,
    Timeouts,
)
from billing_toolkit.pytest_plugin import BillingSim
from billing_toolkit.simulator.faults.kinds import KINDS
from tests.client.conftest import FakeClock

pytestmark = [pytest.mark.anyio, pytest.mark.billing_sim(shared=True, emulate_socket_faults=True)]
MONEY = re.compile(r"^-?\d+\.\d{2}$")

OK, NO, ESCALATE = "ok", "business no", "escalate"

FAULTS: dict[str, tuple[dict[str, Any], str, int]] = {
    # kind: (params, outcome of a persistent fault on getBalance, requests the client makes)
    "latency_fixed": ({"ms": 250}, OK, 1),
    "latency_uniform": ({"min_ms": 10, "max_ms": 400}, OK, 1),
    "latency_lognormal": ({"median_ms": 50, "sigma": 1.0}, OK, 1),
    "timeout": ({"hold_s": 5}, ESCALATE, 1),
    "http_500": ({}, ESCALATE, 1),
    "http_502": ({}, ESCALATE, 3),
    "http_503": ({"retry_after_s": 1}, ESCALATE, 3),
    "http_504": ({}, ESCALATE, 3),
    "http_429": ({"retry_after_s": 1}, ESCALATE, 3),
    "not_found": ({}, NO, 1),
    "connection_reset": ({}, ESCALATE, 3),
    "connection_drop": ({}, ESCALATE, 3),
    "empty_response": ({}, ESCALATE, 1),
    "malformed_json": ({}, ESCALATE, 1),
    "truncated_body": ({"fraction": 0.5}, ESCALATE, 3),
    "slow_drip": ({"chunk_bytes": 16, "interval_ms": 200}, OK, 1),
}
RETRIED = [kind for kind, (_, outcome, requests) in FAULTS.items() if requests > 1]


@pytest.fixture
def sim(billing_sim: BillingSim) -> BillingSim:
    return billing_sim


@pytest.fixture
async def caps(sim: BillingSim) -> AsyncIterator[AsyncCapabilities]:
    assert sim.fault_clock is not None, "the plugin's simulator runs on a virtual clock"
    client = sim.async_client_for(
        "fibranet",
        rng=random.Random(5),
        timeouts=Timeouts(total=10.0),
        breaker=CircuitBreaker(BreakerConfig(failure_threshold=10), clock=sim.fault_clock),
    )
    async with client:
        yield AsyncCapabilities(client)


def api_answer(sim: BillingSim, path: str) -> Any:
    """What the API answers, untouched by the client (to compare evidence with)."""
    response = sim.http.get(path)
    response.raise_for_status()
    return response.json()


def fault_events(sim: BillingSim, kind: str) -> int:
    return len(sim.faults.events(kind))


def test_every_fault_kind_of_the_simulator_has_an_expected_outcome() -> None:
    assert set(FAULTS) == set(KINDS)


@pytest.mark.parametrize("kind", list(FAULTS))
async def test_a_persistent_fault_gives_the_right_tool_result(
    kind: str, sim: BillingSim, caps: AsyncCapabilities
) -> None:
    account = sim.sample("individual")["account_number"]
    clean = await caps.balance(account)
    params, outcome, requests = FAULTS[kind]
    sim.faults.add(kind, operation="getBalance", **params)
    result = await caps.balance(account)
    assert result.capability == "balance"
    if outcome == OK:
        assert result == clean
    else:
        assert (result.ok, result.evidence_text, result.data) == (False, None, None)
        assert result.should_escalate is (outcome == ESCALATE)
        assert result.error
    assert fault_events(sim, kind) == requests


@pytest.mark.parametrize("kind", RETRIED)
async def test_a_transient_fault_is_retried_away(
    kind: str, sim: BillingSim, caps: AsyncCapabilities
) -> None:
    account = sim.sample("individual")["account_number"]
    clean = await caps.balance(account)
    sim.faults.add(kind, operation="getBalance", times=1, **FAULTS[kind][0])
    assert await caps.balance(account) == clean
    assert fault_events(sim, kind) == 1


@pytest.mark.billing_sim(shared=False)
async def test_a_payment_whose_answer_was_lost_is_recorded_once(
    sim: BillingSim, caps: AsyncCapabilities
) -> None:
    account = sim.sample("open_invoice")["account_number"]
    before = api_answer(sim, f"/v1/customers/{account}/payments?limit=100")["data"]
    sim.faults.add("truncated_body", operation="createPayment", times=1)
    currency = api_answer(sim, f"/v1/customers/{account}")["currency"]
    paid = await caps.client.create_payment(
        account, amount=Decimal("1.00"), currency=currency, method="cash"
    )
    after = api_answer(sim, f"/v1/customers/{account}/payments?limit=100")["data"]
    assert len(after) == len(before) + 1
    assert [p["payment_id"] for p in after].count(paid.payment_id) == 1
    assert fault_events(sim, "truncated_body") == 1


def money_strings(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for item in value.values():
            yield from money_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from money_strings(item)
    elif isinstance(value, str) and MONEY.match(value):
        yield value


@pytest.mark.parametrize(
    "sample", ["individual", "overdue", "credit", "ves", "business", "suspended"]
)
async def test_evidence_states_every_figure_exactly_as_the_api_gave_it(
    sample: str, sim: BillingSim, caps: AsyncCapabilities
) -> None:
    account = sim.sample(sample)["account_number"]
    raw = api_answer(sim, f"/v1/customers/{account}/balance")
    result = await caps.balance(account)
    assert result.ok and result.evidence_text is not None
    for figure in money_strings(raw):
        assert f"{raw['currency']} {figure}" in result.evidence_text
    assert raw["as_of"] in result.evidence_text and account in result.evidence_text


async def test_every_capability_answers_for_a_real_customer(
    sim: BillingSim, caps: AsyncCapabilities
) -> None:
    customer = sim.sample("pending_change")
    account = customer["account_number"]
    results = [
        await caps.customer_by_phone(customer["phone"]),
        await caps.customer_by_national_id(customer["national_id"]),
        await caps.customer_by_account(account),
        await caps.balance(account),
        await caps.invoices(account),
        await caps.last_payment(account),
        await caps.plan(account),
        await caps.bill_change(account),
        await caps.payments(account),
    ]
    for result in results:
        assert (result.ok, result.should_escalate, result.error) == (True, False, None), result
        assert result.evidence_text and account in result.evidence_text
    plan = results[6]
    assert plan.data is not None and plan.data["pending_plan"] is not None
    assert "Scheduled plan change to" in (plan.evidence_text or "")


async def test_bill_change_differences_are_exact(sim: BillingSim, caps: AsyncCapabilities) -> None:
    account = sim.sample("individual")["account_number"]
    billed = [
        i
        for i in api_answer(sim, f"/v1/customers/{account}/invoices?limit=20")["data"]
        if i["status"] != "void"
    ]
    latest, previous = billed[0], billed[1]
    result = await caps.bill_change(account)
    assert result.data is not None and result.evidence_text is not None
    difference = Decimal(latest["total"]) - Decimal(previous["total"])
    assert result.data["total_difference"] == f"{difference:.2f}"
    assert (
        latest["invoice_number"] in result.evidence_text
        and previous["invoice_number"] in result.evidence_text
    )


async def test_invoice_lookup_is_exact_and_never_crosses_an_account_or_a_tenant(
    sim: BillingSim, caps: AsyncCapabilities
) -> None:
    first, second = (
        sim.tenant_info()["near_duplicate_invoices"][0][k] for k in ("first", "second")
    )
    owner = api_answer(sim, f"/v1/invoices/{first}")["account_number"]
    exact = await caps.invoice_by_number(owner, first)
    assert exact.ok and exact.evidence_text is not None
    assert first in exact.evidence_text and second not in exact.evidence_text

    someone_else = sim.sample("business")["account_number"]
    assert someone_else != owner
    other_account = await caps.invoice_by_number(someone_else, first)
    other_tenant = await caps.invoice_by_number(
        someone_else, sim.tenant_info()["other_tenant_invoice"]
    )
    for result in (other_account, other_tenant):
        assert (result.ok, result.should_escalate, result.evidence_text) == (False, False, None)
        assert result.error is not None and result.error.startswith("invoice_not_found: ")
    assert owner not in (other_account.error or "")


async def test_unknown_customer_is_an_answer(sim: BillingSim, caps: AsyncCapabilities) -> None:
    result = await caps.balance(sim.tenant_info()["unknown_account_number"])
    assert (result.ok, result.should_escalate) == (False, False)
    assert result.error is not None and result.error.startswith("customer_not_found: ")


async def test_a_rejected_api_key_escalates(sim: BillingSim, clock: FakeClock) -> None:
    async with AsyncBillingClient(
        "http://sim",
        "sk_wrong_key",
        transport=httpx.ASGITransport(sim.app),
        clock=clock,
        sleep=clock.async_sleep,
    ) as client:
        result = await AsyncCapabilities(client).balance(sim.sample("individual")["account_number"])
    assert (result.ok, result.should_escalate) == (False, True)
    assert result.error is not None and result.error.startswith("unauthorized: ")
