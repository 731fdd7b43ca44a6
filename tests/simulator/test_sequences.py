"""Sequences: one rule that changes per matching request or per time on the fault clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from billing_toolkit.simulator.faults.clock import ManualClock
from billing_toolkit.simulator.faults.kinds import KINDS
from billing_toolkit.simulator.faults.rules import FaultRuleError
from billing_toolkit.simulator.faults.scenario import ScenarioError, parse_scenario_text
from tests.simulator.conftest import ADMIN, Sim, small_config

RETRY_THEN_RECOVER = [{"kind": "http_503", "times": 2}, {"kind": "pass", "times": 5},
                      {"kind": "http_503", "duration_s": 30}]  # fmt: skip


@pytest.fixture
def sim() -> Iterator[Sim]:
    simulator = Sim(small_config())
    with simulator.client:
        yield simulator


def _statuses(sim: Sim, count: int) -> list[int]:
    path = f"/v1/customers/{sim.sample('open_invoice')['account_number']}/balance"
    return [sim.get(path).status_code for _ in range(count)]


def test_fail_twice_succeed_five_times_then_503_for_30_s_then_recover(sim: Sim) -> None:
    sim.control.faults.add_rule({"operation": "getBalance", "steps": RETRY_THEN_RECOVER})
    assert _statuses(sim, 9) == [503, 503, 200, 200, 200, 200, 200, 503, 503]
    sim.clock.advance(29.9)
    assert _statuses(sim, 1) == [503]
    sim.clock.advance(0.1)
    assert _statuses(sim, 3) == [200, 200, 200]
    rule = sim.control.faults.list()[0]
    assert rule["kind"] == "sequence" and rule["fired"] == 5
    assert [event.kind for event in sim.control.faults.events()] == ["http_503"] * 5


def test_a_repeating_sequence_of_durations_follows_the_clock(sim: Sim) -> None:
    sim.control.faults.add_rule({"operation": "getBalance", "repeat": True, "steps": [
        {"kind": "pass", "duration_s": 10}, {"kind": "http_500", "duration_s": 5}]})  # fmt: skip
    seen = []
    for _ in range(6):
        seen += _statuses(sim, 1)
        sim.clock.advance(5)
    assert seen == [200, 200, 500, 200, 200, 500]
    sim.clock.advance(365 * 86_400.0)  # a year later: arithmetic, not a walk through cycles
    assert _statuses(sim, 1) == [200]


def test_other_operations_do_not_advance_the_sequence(sim: Sim) -> None:
    sim.control.faults.add_rule(
        {"operation": "getBalance", "steps": [{"kind": "http_503", "times": 1}]}
    )
    assert sim.get("/v1/plans").status_code == 200
    assert _statuses(sim, 2) == [503, 200]


def test_a_sequence_through_the_admin_api(sim: Sim) -> None:
    added = sim.client.post("/_sim/faults", headers=ADMIN,
                            json={"operation": "getBalance", "steps": RETRY_THEN_RECOVER})  # fmt: skip
    assert added.status_code == 201 and added.json()["kind"] == "sequence"
    assert added.json()["steps"][0] == {"kind": "http_503", "retry_after_s": 5, "times": 2}
    assert _statuses(sim, 3) == [503, 503, 200]
    listed = sim.client.get("/_sim/faults", headers=ADMIN).json()["data"][0]
    assert listed["position"] == {"step": 1, "count": 1}


@pytest.mark.parametrize(("rule", "field", "says"), [
    ({"steps": [{"kind": "http_5033"}]}, "body.steps[0].kind", "unknown fault kind"),
    ({"steps": [{"kind": "pass"}, {"kind": "http_503"}]}, "body.steps[0]", "give times or duration_s"),
    ({"steps": [{"kind": "http_503", "times": 1, "duration_s": 2}]}, "body.steps[0].duration_s", "not both"),
    ({"steps": [{"kind": "http_503", "retry_after_s": -1}]}, "body.steps[0].retry_after_s", "at least 0"),
    ({"steps": [{"kind": "http_503", "ms": 5}]}, "body.steps[0].ms", "unknown field"),
    ({"steps": [{"kind": "http_503"}], "times": 3}, "body.times", "each step says"),
    ({"steps": [{"kind": "http_503"}], "probability": 0.5}, "body.probability", "each step says"),
    ({"steps": [{"kind": "http_503"}], "kind": "http_500"}, "body.kind", "in the steps"),
    ({"steps": [{"kind": "http_503"}], "repeat": "yes"}, "body.repeat", ""),
])  # fmt: skip
def test_bad_sequences_are_400_naming_the_field(
    sim: Sim, rule: dict[str, object], field: str, says: str
) -> None:
    response = sim.client.post(
        "/_sim/faults", headers=ADMIN, json={"operation": "getBalance", **rule}
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert any(e["field"].startswith(field) and says in e["message"] for e in errors), errors
    assert sim.control.faults.list() == []


def test_not_found_step_on_an_operation_without_404_is_refused(sim: Sim) -> None:
    with pytest.raises(FaultRuleError, match=r"fault\.steps\[0\]\.kind: listPlans has no 404"):
        sim.control.faults.add_rule({"operation": "listPlans", "steps": [{"kind": "not_found"}]})


SCENARIO = """\
name: flaky-balance
rules:
  - operation: getBalance
    steps:
      - kind: http_503
        times: 2
      - {kind: pass, times: 0}
      - kind: timeout
        duration_s: 30
        hold_s: 0
      - kind: nope
"""


def test_the_scenario_validator_names_each_step_field_with_its_line(sim: Sim) -> None:
    with pytest.raises(ScenarioError) as raised:
        parse_scenario_text(SCENARIO, sim.control.faults.operations, "flaky.yaml")
    assert raised.value.problems == [
        "line 7: rules[0].steps[1].times: must be a whole number in [1, 1000000000], got 0",
        "line 10: rules[0].steps[2].hold_s: must be greater than 0, got 0",
        "line 11: rules[0].steps[3].kind: unknown fault kind 'nope' (known: pass, "
        + ", ".join(KINDS)
        + ")",
    ]


def test_a_valid_sequence_scenario_loads(sim: Sim) -> None:
    text = SCENARIO.replace("times: 0", "times: 1").replace("hold_s: 0", "hold_s: 1")
    text = text.replace("      - kind: nope\n", "")
    loaded = sim.control.faults.load_scenario(text)
    assert [step.kind for step in loaded[0].steps] == ["http_503", "pass", "timeout"]
    assert _statuses(sim, 3) == [503, 503, 200]


def test_time_steps_start_after_after_s() -> None:
    sim = Sim(small_config(clock=ManualClock()))
    with sim.client:
        sim.control.faults.add_rule({"operation": "getBalance", "after_s": 10,
                                     "steps": [{"kind": "http_500", "duration_s": 5}]})  # fmt: skip
        assert _statuses(sim, 1) == [200]
        sim.clock.advance(12)
        assert _statuses(sim, 1) == [500]
        sim.clock.advance(3)
        assert _statuses(sim, 1) == [200]
