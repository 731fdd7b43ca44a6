"""The contract's business rules each have a check in the kit and code in the simulator.

A rule added to `x-business-rules` without a judge or probe naming it in the kit, or
without the simulator naming the code that implements it, is a red test here; so is a
name in either table that the contract does not define.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from billing_toolkit.conformance.probes import PROBES
from billing_toolkit.conformance.rules import JUDGES
from billing_toolkit.conformance.rules.texts import RULE_TEXTS
from billing_toolkit.contract.document import ContractError, load
from billing_toolkit.contract.rules import load_rules, markers, rules_from_document
from billing_toolkit.simulator.rule_ids import IMPLEMENTED_BY

RULE_IDS = set(load_rules())


def checked_in_kit() -> set[str]:
    return {judge.rule_id for judge in JUDGES} | {rule for p in PROBES for rule in p.rules}


def test_every_rule_has_a_check_in_the_kit_and_nothing_else_is_named() -> None:
    assert RULE_IDS - checked_in_kit() == set(), "rules without a check"
    assert checked_in_kit() - RULE_IDS == set(), "checks of rules the contract lacks"
    assert set(RULE_TEXTS) == RULE_IDS


def test_every_rule_has_an_implementation_in_the_simulator() -> None:
    assert RULE_IDS - set(IMPLEMENTED_BY) == set(), "rules the simulator does not name"
    assert set(IMPLEMENTED_BY) - RULE_IDS == set(), "names of rules the contract lacks"
    assert all(callable(code) for code in IMPLEMENTED_BY.values())


def test_every_rule_is_named_next_to_the_prose_it_formalises() -> None:
    named = {rule for ids in markers(load()).values() for rule in ids}
    assert named == RULE_IDS


def test_operations_a_rule_applies_to_exist() -> None:
    operation_ids = {
        op["operationId"]
        for item in load()["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    }
    for rule in load_rules().values():
        assert set(rule.operations) - {"*"} <= operation_ids, rule.rule_id
        assert set(rule.schemas) <= set(load()["components"]["schemas"]), rule.rule_id


def _with_rules(change: Any) -> dict[str, Any]:
    document = copy.deepcopy(load())
    change(document)
    return document


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.__setitem__("x-business-rules", {"id": "x"}), "must be a list"),
        (lambda d: d["x-business-rules"].append({"statement": "no id"}), "string id"),
        (lambda d: d["x-business-rules"].append({"id": "a.b", "statement": " "}), "no statement"),
        (lambda d: d["x-business-rules"].append(dict(d["x-business-rules"][0])), "defined twice"),
        (
            lambda d: d["components"]["schemas"]["Balance"].__setitem__(
                "x-rules", ["balance.nett"]
            ),
            "unknown business rule",
        ),
        (
            lambda d: d["x-business-rules"][0].__setitem__(
                "applies-to", {"operations": "getBalance"}
            ),
            "list of strings",
        ),
    ],
)
def test_a_malformed_rule_list_is_a_contract_error(change: Any, message: str) -> None:
    with pytest.raises(ContractError, match=message):
        rules_from_document(_with_rules(change))
