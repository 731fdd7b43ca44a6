"""No silent no-op for QA: a rule that could never fire, a scenario that is not what it
says, a filter that filters nothing — each is refused or honoured, and says so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from billing_toolkit.pytest_plugin.faults import Faults
from billing_toolkit.simulator.faults.rules import FaultRuleError
from billing_toolkit.simulator.faults.scenario import ScenarioError
from tests.simulator.conftest import ADMIN, Sim

SCENARIO = (
    "name: plans-down\nrules:\n  - {operation: listPlans, kind: http_503, retry_after_s: 2}\n"
)
YAML = {**ADMIN, "Content-Type": "application/yaml"}


@pytest.mark.parametrize(("fields", "message"), [
    ({"operation": "*", "tenant": "nosuch"}, "tenant: no tenant 'nosuch'"),
    ({"operation": "*", "customer": "abc"}, "customer: 'abc' is not an account number"),
    ({"operation": "getBalance", "path": "/v1/*"}, "path: give an operation or a path, not both"),
    ({"operation": "*", "hold_s": 1e300}, "hold_s: must be at most 3600"),
])  # fmt: skip
def test_a_rule_that_could_never_fire_is_refused_by_control_and_pytest_handle(
    sim: Sim, fields: dict[str, Any], message: str
) -> None:
    handle = Faults(sim.control.faults, socket=True, emulate=False)
    kind = "timeout" if "hold_s" in fields else "http_500"
    for add in (sim.control.faults.add, handle.add):
        with pytest.raises(FaultRuleError, match=message.replace("(", r"\(")):
            add(kind, **fields)
    assert sim.control.faults.list() == []


def test_every_problem_of_a_rule_is_named(sim: Sim) -> None:
    response = sim.client.post(
        "/_sim/faults",
        headers=ADMIN,
        json={"kind": "http_500", "operation": "*", "tenant": "nosuch", "customer": "abc"},
    )
    assert response.status_code == 400
    assert sorted(e["field"] for e in response.json()["errors"]) == ["body.customer", "body.tenant"]


def test_a_scenario_with_a_duplicate_key_reports_every_error_with_its_line(sim: Sim) -> None:
    text = (
        "rules:\n"
        "  - operation: getBalance\n"
        "    kind: http_503\n"
        "    kind: http_500\n"
        "  - {operation: getBalance, kind: nope}\n"
    )
    response = sim.client.post("/_sim/scenarios", headers=YAML, content=text)
    assert response.status_code == 400
    messages = [e["message"] for e in response.json()["errors"]]
    assert messages[0].startswith("line 4: 'kind' is given twice")
    assert messages[1].startswith("line 5: rules[1].kind: unknown fault kind 'nope'")
    assert sim.control.faults.list() == []


def test_a_named_scenario_is_replaced_and_unloaded_by_name(sim: Sim) -> None:
    assert sim.client.post("/_sim/scenarios", headers=YAML, content=SCENARIO).status_code == 201
    again = sim.client.post("/_sim/scenarios", headers=YAML, content=SCENARIO)
    assert again.status_code == 400 and "already loaded" in again.json()["errors"][0]["message"]
    replaced = sim.client.post(
        "/_sim/scenarios?replace=true", headers=YAML, content=SCENARIO.replace("503", "429")
    )
    assert replaced.status_code == 201
    rules = sim.control.faults.list()
    assert [(r["kind"], r["scenario"]) for r in rules] == [("http_429", "plans-down")]
    sim.control.faults.add("http_504", operation="getBalance")
    assert sim.client.delete("/_sim/scenarios/plans-down", headers=ADMIN).status_code == 204
    assert [r["kind"] for r in sim.control.faults.list()] == ["http_504"]
    assert sim.client.delete("/_sim/scenarios/plans-down", headers=ADMIN).status_code == 404


def test_fault_events_are_filtered_by_kind(sim: Sim) -> None:
    sim.control.faults.add("http_503", operation="listPlans", times=1)
    sim.control.faults.add("latency_fixed", operation="listPlans", ms=5)
    sim.get("/v1/plans")
    sim.get("/v1/plans")
    kinds = lambda query: [
        e["kind"]
        for e in sim.client.get(f"/_sim/fault-events{query}", headers=ADMIN).json()["data"]
    ]
    assert kinds("") == ["http_503", "latency_fixed"]
    assert kinds("?kind=http_503") == ["http_503"]
    assert kinds("?kind=timeout") == []
    assert sim.client.get("/_sim/fault-events?kind=http_418", headers=ADMIN).status_code == 400


def test_a_str_that_names_a_yaml_file_is_read_as_a_path(sim: Sim, tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(SCENARIO)
    handle = Faults(sim.control.faults, socket=True, emulate=False)
    assert [r.kind for r in handle.load_scenario(str(path))] == ["http_503"]
    assert [r.kind for r in sim.control.faults.load_scenario(str(path), replace=True)] == [
        "http_503"
    ]
    with pytest.raises(ScenarioError, match="cannot read"):
        sim.control.faults.load_scenario(str(tmp_path / "missing.yaml"))
    text = SCENARIO.replace("plans-down", "as-text")
    assert [r.kind for r in sim.control.faults.load_scenario(text)] == ["http_503"]
