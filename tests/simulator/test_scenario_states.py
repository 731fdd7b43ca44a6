"""Scenario states: the rules in force follow what happened before (WireMock scenarios)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from billing_toolkit.simulator.cli import main
from billing_toolkit.simulator.faults.scenario import ScenarioError, parse_scenario_text
from tests.simulator.conftest import ADMIN, Sim, small_config

if TYPE_CHECKING:
    import httpx2  # what starlette's TestClient answers with (not the SDK's httpx)

PAYMENT_THEN_OUTAGE = """\
name: payment-then-outage
initial: healthy
states:
  healthy:
    rules: []
    on: [{operation: createPayment, status: 201, count: 1, to: degraded}]
  degraded:
    rules: [{operation: getBalance, kind: http_503}]
    on: [{operation: getBalance, count: 3, to: healthy}]
"""


@pytest.fixture
def sim() -> Iterator[Sim]:
    simulator = Sim(small_config())
    with simulator.client:
        yield simulator


def _load(sim: Sim, text: str) -> httpx2.Response:
    return sim.client.post(
        "/_sim/scenarios", headers={**ADMIN, "Content-Type": "application/yaml"}, content=text
    )


def _balances(sim: Sim, account: str, count: int) -> list[int]:
    return [sim.get(f"/v1/customers/{account}/balance").status_code for _ in range(count)]


def _state(sim: Sim) -> dict[str, Any]:
    listed = sim.client.get("/_sim/scenarios", headers=ADMIN)
    assert listed.status_code == 200
    return listed.json()["data"][0]


def test_a_payment_moves_the_scenario_into_an_outage_and_three_calls_recover_it(sim: Sim) -> None:
    assert _load(sim, PAYMENT_THEN_OUTAGE).status_code == 201
    account = sim.sample("open_invoice")["account_number"]
    assert _balances(sim, account, 2) == [200, 200]
    assert _state(sim)["state"] == "healthy"
    assert sim.pay(account, "key-state-1").status_code == 201
    assert _state(sim) == {
        "name": "payment-then-outage",
        "state": "degraded",
        "states": ["healthy", "degraded"],
        "transitions": [{"operation": "getBalance", "count": 3, "to": "healthy", "seen": 0}],
    }
    assert _balances(sim, account, 2) == [503, 503]
    assert _state(sim)["transitions"][0]["seen"] == 2
    assert _balances(sim, account, 2) == [503, 200]  # the third 503 moved it back
    assert _state(sim)["state"] == "healthy"
    faults = sim.client.get("/_sim/faults", headers=ADMIN).json()["data"]
    assert [(f["state"], f["in_force"]) for f in faults] == [("degraded", False)]


def test_a_refused_payment_is_not_the_event_the_transition_waits_for(sim: Sim) -> None:
    _load(sim, PAYMENT_THEN_OUTAGE)
    account = sim.sample("open_invoice")["account_number"]
    assert sim.pay(account, "key-state-2", amount="-5.00").status_code in (400, 422)
    assert _state(sim)["state"] == "healthy"
    assert _balances(sim, account, 1) == [200]


def test_setting_the_state_through_the_admin_api_starts_it_afresh(sim: Sim) -> None:
    _load(sim, PAYMENT_THEN_OUTAGE)
    account = sim.sample("open_invoice")["account_number"]
    moved = sim.client.put(
        "/_sim/scenarios/payment-then-outage/state", headers=ADMIN, json={"state": "degraded"}
    )
    assert moved.status_code == 200 and moved.json()["state"] == "degraded"
    assert _balances(sim, account, 1) == [503]
    sim.client.put("/_sim/scenarios/payment-then-outage/state", headers=ADMIN,
                   json={"state": "degraded"})  # fmt: skip
    assert _state(sim)["transitions"][0]["seen"] == 0


def test_setting_an_unknown_state_or_scenario_is_refused(sim: Sim) -> None:
    _load(sim, PAYMENT_THEN_OUTAGE)
    typo = sim.client.put(
        "/_sim/scenarios/payment-then-outage/state", headers=ADMIN, json={"state": "degarded"}
    )
    assert typo.status_code == 400
    assert typo.headers["content-type"].startswith("application/problem+json")
    [error] = typo.json()["errors"]
    assert error["field"] == "body.state" and "states: degraded, healthy" in error["message"]
    missing = sim.client.put("/_sim/scenarios/nope/state", headers=ADMIN, json={"state": "x"})
    assert missing.status_code == 404
    assert _state(sim)["state"] == "healthy"


def test_unloading_and_clearing_drop_the_states(sim: Sim) -> None:
    _load(sim, PAYMENT_THEN_OUTAGE)
    assert (
        sim.client.delete("/_sim/scenarios/payment-then-outage", headers=ADMIN).status_code == 204
    )
    assert sim.client.get("/_sim/scenarios", headers=ADMIN).json()["data"] == []
    _load(sim, PAYMENT_THEN_OUTAGE)
    sim.client.delete("/_sim/faults", headers=ADMIN)
    assert sim.client.get("/_sim/scenarios", headers=ADMIN).json()["data"] == []


def test_replacing_a_scenario_restarts_its_states(sim: Sim) -> None:
    _load(sim, PAYMENT_THEN_OUTAGE)
    sim.control.faults.set_state("payment-then-outage", "degraded")
    replaced = sim.client.post(
        "/_sim/scenarios?replace=true",
        headers={**ADMIN, "Content-Type": "application/yaml"},
        content=PAYMENT_THEN_OUTAGE,
    )
    assert replaced.status_code == 201
    assert sim.control.faults.state("payment-then-outage") == "healthy"
    assert len(sim.control.faults.list()) == 1


BROKEN = [
    # (what QA wrote, the field and line the loader must name)
    (PAYMENT_THEN_OUTAGE.replace("to: degraded", "to: degarded"),
     "line 6: states.healthy.on[0].to: unknown state 'degarded' (states: degraded, healthy)"),
    (PAYMENT_THEN_OUTAGE.replace("initial: healthy", "initial: fine"),
     "line 2: initial: unknown state 'fine'"),
    (PAYMENT_THEN_OUTAGE.replace("operation: createPayment", "operation: createPaymnet"),
     "line 6: states.healthy.on[0].operation: unknown operationId 'createPaymnet'"),
    (PAYMENT_THEN_OUTAGE.replace("count: 3", "count: 0"),
     "line 9: states.degraded.on[0].count: must be a whole number in [1, 1000000], got 0"),
    (PAYMENT_THEN_OUTAGE.replace("status: 201", "status: 200"),
     "line 6: states.healthy.on[0].status: createPayment does not document 200"),
    (PAYMENT_THEN_OUTAGE.replace("kind: http_503", "kind: http_5033"),
     "line 8: states.degraded.rules[0].kind: unknown fault kind 'http_5033'"),
    (PAYMENT_THEN_OUTAGE.replace("name: payment-then-outage\n", ""),
     "name: is required with states"),
    (PAYMENT_THEN_OUTAGE.replace("initial: healthy\n", ""),
     "initial: is required with states"),
    (PAYMENT_THEN_OUTAGE.replace("count: 3, to: healthy", "count: 3, too: healthy"),
     "line 9: states.degraded.on[0].too: unknown field"),
    (PAYMENT_THEN_OUTAGE.replace("    rules: []\n", "    rule: []\n"),
     "line 5: states.healthy.rule: unknown field (expected rules, on)"),
    (PAYMENT_THEN_OUTAGE.replace("operation: createPayment", "operation: [createPayment]"),
     "line 6: states.healthy.on[0].operation: unknown operationId ['createPayment']"),
    (PAYMENT_THEN_OUTAGE.replace("to: degraded", "to: {state: degraded}"),
     "line 6: states.healthy.on[0].to: unknown state {'state': 'degraded'}"),
    (PAYMENT_THEN_OUTAGE.replace("initial: healthy", "initial: [healthy]"),
     "line 2: initial: unknown state ['healthy']"),
    (PAYMENT_THEN_OUTAGE.replace("status: 201", "status: '201'"),
     "line 6: states.healthy.on[0].status: must be an HTTP status code, got '201'"),
    (PAYMENT_THEN_OUTAGE.replace("    on: [{operation: getBalance", "    on: [{operation: getBalance}, {operation: getBalance"),
     "line 9: states.degraded.on[0].to: is required"),
    ("name: x\ninitial: a\nstates: [a, b]\n", "line 3: states: must be a mapping of 1 to 50"),
    ("name: x\ninitial: a\nstates:\n  a: {on: {to: a}}\n", "line 4: states.a.on: must be a list"),
    ("name: x\ninitial: a\nstates:\n  a: [rules]\n", "line 4: states.a: must be a mapping"),
    ("name: x\ninitial: a\nstates:\n  a b: {}\n", "line 4: states.a b: a state name is 1 to 64"),
    ("name: x\ninitial: a\nrules: [{operation: getBalance, kind: http_503}]\n",
     "line 2: initial: given without states"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "says"), BROKEN)
def test_a_broken_states_scenario_is_refused_naming_field_and_line(
    sim: Sim, text: str, says: str
) -> None:
    response = _load(sim, text)
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("application/problem+json")
    messages = [f"{e['field']}: {e['message']}" for e in response.json()["errors"]]
    assert any(says in message for message in messages), messages
    assert sim.control.faults.list() == [] and sim.control.faults.scenarios() == []


def test_every_problem_is_reported_at_once() -> None:
    text = PAYMENT_THEN_OUTAGE.replace("to: degraded", "to: nowhere").replace(
        "count: 3", "count: -1"
    )
    with pytest.raises(ScenarioError) as raised:
        parse_scenario_text(text, {"createPayment": True, "getBalance": True}, "qa.yaml")
    assert [p.split(":")[1].strip() for p in raised.value.problems] == [
        "states.healthy.on[0].to", "states.degraded.on[0].count"
    ]  # fmt: skip
    assert str(raised.value).startswith("qa.yaml: line 6: ")


def test_the_same_requests_give_the_same_states(sim: Sim) -> None:
    """Deterministic: a second run of the same story ends in the same place."""
    account = sim.sample("open_invoice")["account_number"]
    runs = []
    for attempt in range(2):
        sim.control.faults.clear()
        sim.control.faults.load_scenario(PAYMENT_THEN_OUTAGE)
        sim.pay(account, f"key-det-{attempt}")
        runs.append((_balances(sim, account, 5), sim.control.faults.scenarios()))
    assert runs[0] == runs[1] and runs[0][0] == [503, 503, 503, 200, 200]


def test_the_cli_validates_states_with_one_line_per_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text(PAYMENT_THEN_OUTAGE, encoding="utf-8")
    bad.write_text(PAYMENT_THEN_OUTAGE.replace("status: 201", "status: 200"), encoding="utf-8")
    assert main(["scenario", "validate", str(good)]) == 0
    assert "ok (1 rule, 2 states)" in capsys.readouterr().out
    assert main(["scenario", "validate", str(bad)]) == 2
    error = capsys.readouterr().err
    assert "line 6: states.healthy.on[0].status: createPayment does not document 200" in error
    assert "Traceback" not in error
