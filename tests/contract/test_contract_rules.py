"""What the linters don't check: the rules our users rely on, over the whole contract."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema.protocols import Validator
from openapi_schema_validator import OAS31Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from billing_toolkit.contract.document import operations, pointer_escape, resolve

CONTRACT_URI = "urn:billing-contract"
MONEY_WORDS = ("amount", "price", "total", "subtotal", "tax", "balance", "paid", "due")
REQUIRED_CODES = {
    "customer_not_found",
    "invoice_not_found",
    "validation_error",
    "idempotency_conflict",
    "unauthorized",
    "unavailable",
    "rate_limited",
    "internal",
}


def responses(spec: dict[str, Any]) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """Every (path, method, status, resolved response) of the contract."""
    for path, method, op in operations(spec):
        for status, response in op["responses"].items():
            yield path, method, status, resolve(spec, response)


def _validator(spec: dict[str, Any], pointer: str) -> Validator:
    registry = Registry().with_resource(
        CONTRACT_URI, Resource.from_contents(spec, default_specification=DRAFT202012)
    )
    return OAS31Validator({"$ref": f"{CONTRACT_URI}#{pointer}"}, registry=registry)


def _examples(spec: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """(where, JSON pointer of the schema, example value) for every example in the paths."""
    found: list[tuple[str, str, Any]] = []
    for path, method, op in operations(spec):
        base = f"/paths/{pointer_escape(path)}/{method}"
        for index, param in enumerate(op.get("parameters", [])):
            param_pointer = f"{base}/parameters/{index}"
            if "$ref" in param:
                param_pointer = param["$ref"].removeprefix("#")
            param = resolve(spec, param)
            if "example" in param:
                found.append(
                    (
                        f"{method} {path} param {param['name']}",
                        f"{param_pointer}/schema",
                        param["example"],
                    )
                )
        media_sets = [(f"{base}/requestBody", op.get("requestBody"))]
        media_sets += [
            (f"{base}/responses/{status}", resp) for status, resp in op["responses"].items()
        ]
        for pointer, holder in media_sets:
            if holder is None:
                continue
            if "$ref" in holder:
                pointer = holder["$ref"].removeprefix("#")
                holder = resolve(spec, holder)
            for media_type, media in holder.get("content", {}).items():
                schema_pointer = f"{pointer}/content/{pointer_escape(media_type)}/schema"
                for name, example in media.get("examples", {}).items():
                    value = resolve(spec, example)["value"]
                    found.append(
                        (f"{method} {path} {pointer} example {name}", schema_pointer, value)
                    )
    return found


def test_every_example_validates_against_its_schema(spec: dict[str, Any]) -> None:
    examples = _examples(spec)
    assert len(examples) > 30, "the contract should carry examples for every operation"
    failures = [
        f"{where}: {error.message}"
        for where, pointer, value in examples
        for error in _validator(spec, pointer).iter_errors(value)
    ]
    assert failures == []


def test_a_wrong_example_is_caught(spec: dict[str, Any]) -> None:
    """The example check is real: money as a JSON number is rejected by the schema."""
    validator = _validator(spec, "/components/schemas/Balance")
    good = resolve(spec, spec["components"]["examples"]["BalanceOwing"])["value"]
    assert validator.is_valid(good)
    assert not validator.is_valid({**good, "amount_due": 32.48})


def _schema_nodes(node: Any, where: str = "#") -> list[tuple[str, dict[str, Any]]]:
    nodes: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        nodes.append((where, node))
        for key, value in node.items():
            nodes.extend(_schema_nodes(value, f"{where}/{key}"))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            nodes.extend(_schema_nodes(value, f"{where}/{index}"))
    return nodes


def test_no_money_field_is_a_json_number(spec: dict[str, Any]) -> None:
    numbers = [
        where
        for where, node in _schema_nodes(spec)
        if node.get("type") == "number" or "number" in (node.get("type") or [])
    ]
    assert numbers == [], "money (and everything else) must not be a JSON number"


def test_money_named_properties_are_amount_strings(spec: dict[str, Any]) -> None:
    wrong = []
    for name, schema in spec["components"]["schemas"].items():
        for prop, prop_schema in schema.get("properties", {}).items():
            if any(word in prop for word in MONEY_WORDS) and not prop.endswith(("_date", "_at")):
                nullable = [*prop_schema.get("allOf", []), *prop_schema.get("oneOf", [])]
                refs = [prop_schema.get("$ref")] + [s.get("$ref") for s in nullable]
                if not {"#/components/schemas/Amount", "#/components/schemas/PositiveAmount"} & set(
                    refs
                ):
                    wrong.append(f"{name}.{prop}")
    assert wrong == []


def test_money_resources_carry_a_currency(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    for name in ("Plan", "Balance", "Invoice", "Payment", "PaymentCreate"):
        assert schemas[name]["properties"]["currency"] == {"$ref": "#/components/schemas/Currency"}
    assert set(schemas["Currency"]["enum"]) >= {"USD", "VES"}


def test_every_error_response_is_problem_json(spec: dict[str, Any]) -> None:
    wrong = [
        f"{method} {path} {status}: {sorted(resp.get('content', {}))}"
        for path, method, status, resp in responses(spec)
        if status[0] in "45"
        and (
            set(resp.get("content", {})) != {"application/problem+json"}
            or resp["content"]["application/problem+json"]["schema"]
            != {"$ref": "#/components/schemas/Problem"}
        )
    ]
    assert wrong == []


def test_problem_codes_cover_every_outcome_a_client_must_tell_apart(spec: dict[str, Any]) -> None:
    assert REQUIRED_CODES <= set(spec["components"]["schemas"]["ProblemCode"]["enum"])


def test_every_response_declares_x_request_id(spec: dict[str, Any]) -> None:
    missing = [
        f"{method} {path} {status}"
        for path, method, status, resp in responses(spec)
        if "X-Request-Id" not in resp.get("headers", {})
    ]
    assert missing == []


@pytest.mark.parametrize("status", ["429", "503"])
def test_retryable_responses_declare_retry_after(spec: dict[str, Any], status: str) -> None:
    missing = [
        f"{method} {path}"
        for path, method, code, resp in responses(spec)
        if code == status and "Retry-After" not in resp.get("headers", {})
    ]
    assert missing == []


def test_every_operation_is_documented_and_has_an_example(spec: dict[str, Any]) -> None:
    problems = []
    for path, method, op in operations(spec):
        for field in ("operationId", "summary", "description"):
            if not op.get(field):
                problems.append(f"{method} {path}: no {field}")
        has_example = any(
            media.get("examples")
            for resp in op["responses"].values()
            for media in resolve(spec, resp).get("content", {}).values()
        )
        if not has_example:
            problems.append(f"{method} {path}: no example")
    ids = [op["operationId"] for _, _, op in operations(spec)]
    assert len(ids) == len(set(ids)), "operationIds must be unique"
    assert problems == []


def test_customer_scoped_operations_answer_404_like_a_missing_resource(
    spec: dict[str, Any],
) -> None:
    """Another tenant's resource must look exactly like a missing one: a 404 is always declared."""
    missing = [
        f"{method} {path}"
        for path, method, op in operations(spec)
        if "{" in path and "404" not in op["responses"]
    ]
    assert missing == []


def test_links_chain_the_natural_flows(spec: dict[str, Any]) -> None:
    by_id = {op["operationId"]: op for _, _, op in operations(spec)}

    def targets(operation_id: str, status: str) -> set[str]:
        links = by_id[operation_id]["responses"][status].get("links", {})
        return {link["operationId"] for link in links.values()}

    assert {"getBalance", "listInvoices", "listPayments"} <= targets("lookupCustomer", "200")
    assert "getInvoice" in targets("listInvoices", "200")
    assert "listPayments" in targets("createPayment", "201")
    for operation_id in {
        link for op in by_id for status in by_id[op]["responses"] for link in targets(op, status)
    }:
        assert operation_id in by_id, f"link to unknown operation {operation_id}"
