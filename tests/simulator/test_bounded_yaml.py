"""YAML from clients is bounded: an alias bomb, a deep nest, an oversized document or a
scenario of thousands of rules is refused at once with a short message, never expanded,
and no error quotes a whole value. The property test feeds documents under the size cap
made of YAML's own punctuation, anchors and aliases: each is answered quickly."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from billing_toolkit.simulator.console.forms import rule_from_form
from billing_toolkit.simulator.faults.bounded_yaml import MAX_BYTES, MAX_QUOTED
from billing_toolkit.simulator.faults.registry import MAX_ACTIVE_RULES, MAX_SCENARIOS
from billing_toolkit.simulator.faults.scenario import MAX_RULES, ScenarioError, parse_scenario_text
from tests.simulator.conftest import ADMIN, Sim, small_config

OPERATIONS = {"getBalance": True, "listPlans": False}
RULE = "  - {operation: getBalance, kind: http_503}\n"


def bomb(levels: int = 9, width: int = 9) -> str:
    """The billion laughs: 9 levels of 9 aliases each is 9**9 strings once expanded."""
    lines = ['a0: &a0 "lol"']
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * width)}]")
    return "\n".join(lines) + f"\nname: *a{levels - 1}\nrules:\n{RULE}"


@pytest.fixture(scope="module")
def sim() -> Iterator[Sim]:
    simulator = Sim(small_config())
    with simulator.client:
        yield simulator


def _problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as refused:
        parse_scenario_text(text, OPERATIONS)
    return refused.value.problems


def test_an_alias_bomb_is_refused_before_it_expands() -> None:
    started = time.perf_counter()
    [problem] = _problems(bomb())
    assert "aliases" in problem and "line 2" in problem
    assert time.perf_counter() - started < 0.5


def test_an_alias_bomb_in_the_api_and_the_console_box_is_a_400(sim: Sim) -> None:
    answer = sim.client.post(
        "/_sim/scenarios", content=bomb(), headers={**ADMIN, "Content-Type": "application/yaml"}
    )
    assert answer.status_code == 400 and "aliases" in answer.text
    _, problems = rule_from_form({"kind": "http_503", "extra": "id: &x abc\ndescription: *x"})
    assert problems == ["body: the other fields are not valid YAML"]


def test_nesting_and_size_are_capped() -> None:
    [deep] = _problems("rules: " + "[" * 200 + "]" * 200)
    assert "nested deeper" in deep
    [large] = _problems("rules:\n" + RULE * (MAX_BYTES // len(RULE) + 1))
    assert f"at most {MAX_BYTES}" in large


def test_a_scenario_holds_a_bounded_number_of_rules() -> None:
    [problem] = _problems("rules:\n" + RULE * (MAX_RULES + 1))
    assert f"at most {MAX_RULES}" in problem
    assert parse_scenario_text("rules:\n" + RULE * MAX_RULES, OPERATIONS).rules


def test_rules_in_force_and_scenarios_loaded_are_capped(sim: Sim) -> None:
    faults = sim.control.faults
    faults.clear()
    for index in range(MAX_SCENARIOS):
        faults.load_scenario(f"name: s{index}\nrules:\n{RULE}")
    with pytest.raises(ValueError, match=f"at most {MAX_SCENARIOS} scenarios"):
        faults.load_scenario(f"name: one-more\nrules:\n{RULE}")
    for _ in range(MAX_ACTIVE_RULES - MAX_SCENARIOS):
        faults.add_rule({"operation": "getBalance", "kind": "http_503"})
    refused = sim.client.post(
        "/_sim/faults", json={"operation": "getBalance", "kind": "http_503"}, headers=ADMIN
    )
    assert refused.status_code == 400 and f"at most {MAX_ACTIVE_RULES}" in refused.text
    faults.clear()


def test_an_error_quotes_a_bounded_prefix_of_a_huge_value() -> None:
    huge = "x" * 20_000
    problems = _problems(f"rules:\n  - {{operation: {huge}, kind: {huge}}}\n{huge}: 1\n{huge}: 2\n")
    assert problems and all(len(problem) < 2 * MAX_QUOTED + 200 for problem in problems)


YAML_PIECES = st.sampled_from(
    ["&a ", "&b ", "*a", "*b", "[", "]", "{", "}", ": ", ", ", "- ", "\n", "  ", "rules", "x",
     "'", '"', "? ", "!!str ", "0", "1.5", "#", "|", "kind: http_503", "operation: getBalance"]
)  # fmt: skip


@settings(max_examples=150, deadline=1000, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(
    st.lists(YAML_PIECES, max_size=400).map("".join)
    | st.builds(bomb, st.integers(1, 12), st.integers(1, 12))
)
def test_any_small_document_is_answered_quickly_and_briefly(text: str) -> None:
    assert len(text.encode()) <= MAX_BYTES
    started = time.perf_counter()
    try:
        scenario = parse_scenario_text(text, OPERATIONS)
    except ScenarioError as refused:
        assert all(len(problem) < 2 * MAX_QUOTED + 300 for problem in refused.problems)
    else:
        assert len(scenario.every_rule()) <= MAX_RULES
    assert time.perf_counter() - started < 0.5
