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


# Response fields that state no figure, date or status a rule could hold to account: what
# is printed as given (names, addresses, texts), a bookkeeping counter and a timestamp.
DESCRIPTIVE = frozenset(
    {
        "Address.city",
        "Address.line1",
        "Address.postal_code",
        "Address.state",
        "Balance.as_of",
        "Customer.customer_type",
        "Customer.email",
        "Customer.name",
        "Customer.service_address",
        "Health.status",
        "Invoice.revision",
        "LineItem.description",
        "ExchangeRate.source",
    }
)
SCHEMA_REF = "#/components/schemas/"


def _named(node: Any) -> str | None:
    ref = node.get("$ref") if isinstance(node, dict) else None
    return ref.removeprefix(SCHEMA_REF) if isinstance(ref, str) else None


def _properties_under(name: str, schemas: dict[str, Any], seen: set[str]) -> set[str]:
    """`Schema.property` of every object property reachable from the schema `name`."""
    if name in seen:
        return set()
    seen.add(name)
    found: set[str] = set()
    pending: list[Any] = [schemas[name]]
    while pending:
        node = pending.pop()
        if not isinstance(node, dict):
            continue
        if (inner := _named(node)) is not None:
            found |= _properties_under(inner, schemas, seen)
            continue
        if node is schemas[name]:
            found |= {f"{name}.{prop}" for prop in node.get("properties", {})}
        pending += list(node.get("properties", {}).values())
        pending += [node.get("items"), *node.get("oneOf", []), *node.get("anyOf", [])]
    return found


def response_properties() -> set[str]:
    """Every property of a success response body of the contract (problems are the
    problem_json check's, not a business rule's)."""
    document = load()
    schemas = document["components"]["schemas"]
    found: set[str] = set()
    for item in document["paths"].values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for status, response in operation.get("responses", {}).items():
                media = response.get("content", {}).get("application/json", {})
                if str(status).startswith("2") and (name := _named(media.get("schema"))):
                    found |= _properties_under(name, schemas, set())
    return found


def test_every_response_field_with_a_business_meaning_has_a_rule() -> None:
    covered = {name for rule in load_rules().values() for name in rule.properties}
    assert response_properties() - covered - DESCRIPTIVE == set(), "fields no rule covers"
    assert DESCRIPTIVE <= response_properties(), "allow-listed fields the contract lacks"
    assert DESCRIPTIVE & covered == set(), "allow-listed fields a rule covers"


def test_a_rule_naming_a_field_the_contract_lacks_is_a_contract_error() -> None:
    def misspelt(document: dict[str, Any]) -> None:
        document["x-business-rules"][0]["applies-to"]["properties"] = ["Balance.net_balanse"]

    with pytest.raises(ContractError, match="Balance.net_balanse, no such property"):
        rules_from_document(_with_rules(misspelt))
