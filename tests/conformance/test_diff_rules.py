"""One pair of contracts per diff rule: a small billing contract and the same contract with
one realistic edit. Every rule of the catalogue has a case that fires it at its severity, and
the edits that break nobody (an optional response field, a description, an optional
parameter, another spelling of "or null", a new error status) must not be errors."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from billing_toolkit.conformance.diff import CATALOGUE, Severity, diff_contracts
from billing_toolkit.contract.operations import contract_from_document

Doc = dict[str, Any]
Edit = Callable[[Doc], object]  # what an edit returns is ignored
PAYMENTS = "/v1/customers/{accountNumber}/payments"


def base() -> Doc:
    """A small billing contract: list and record payments, a public health probe, one rule."""
    amount = {"type": "string", "pattern": "^[0-9]{1,12}\\.[0-9]{2}$", "maxLength": 16}
    method = {"type": "string", "enum": ["cash", "card"]}
    problem = {"application/problem+json": {"schema": {"type": "object"}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Billing", "version": "1.0.0"},
        "security": [{"apiKey": []}],
        "x-business-rules": [
            {"id": "payment.allocation", "statement": "A payment's amount = allocations + unapplied.",
             "applies-to": {"operations": ["createPayment"], "schemas": ["Payment"]}},
        ],
        "components": {
            "securitySchemes": {"apiKey": {"type": "http", "scheme": "bearer"}},
            "schemas": {
                "Payment": {
                    "type": "object",
                    "description": "A payment.",
                    "required": ["amount", "method", "received_at"],
                    "properties": {
                        "amount": amount,
                        "method": method,
                        "reference": {"type": ["string", "null"], "maxLength": 64},
                        "received_at": {"type": "string", "format": "date-time"},
                    },
                    "additionalProperties": False,
                },
                "PaymentCreate": {
                    "type": "object",
                    "required": ["amount"],
                    "properties": {
                        "amount": dict(amount),
                        "method": dict(method),
                        "reference": {"type": ["string", "null"], "maxLength": 64},
                    },
                    "additionalProperties": False,
                },
            },
        },
        "paths": {
            "/health/live": {
                "get": {
                    "operationId": "getLiveness",
                    "security": [],
                    "responses": {"200": {"description": "alive", "content": {
                        "application/json": {"schema": {"type": "object"}}}}},
                }
            },
            PAYMENTS: {
                "parameters": [{"name": "accountNumber", "in": "path", "required": True,
                                "schema": {"type": "string", "pattern": "^[1-9][0-9]{9}$"}}],
                "get": {
                    "operationId": "listPayments",
                    "description": "The customer's payments.",
                    "parameters": [{"name": "limit", "in": "query", "required": False,
                                    "schema": {"type": "integer", "minimum": 1, "maximum": 100}}],
                    "responses": {
                        "200": {
                            "description": "A page of payments.",
                            "headers": {"X-Request-Id": {"required": True, "schema": {"type": "string"}}},
                            "content": {"application/json": {"schema": {
                                "type": "object", "required": ["data"],
                                "properties": {"data": {"type": "array", "items": {
                                    "$ref": "#/components/schemas/Payment"}}}}}},
                        },
                        "404": {"description": "No such customer.", "content": problem},
                    },
                },
                "post": {
                    "operationId": "createPayment",
                    "requestBody": {"required": True, "content": {"application/json": {
                        "schema": {"$ref": "#/components/schemas/PaymentCreate"}}}},
                    "responses": {
                        "201": {"description": "Recorded.", "content": {"application/json": {
                            "schema": {"$ref": "#/components/schemas/Payment"}}}},
                        "400": {"description": "Invalid.", "content": problem},
                    },
                },
            },
        },
    }  # fmt: skip


def schema(doc: Doc, name: str) -> Doc:
    result: Doc = doc["components"]["schemas"][name]
    return result


def prop(doc: Doc, name: str, field: str) -> Doc:
    result: Doc = schema(doc, name)["properties"][field]
    return result


def list_op(doc: Doc) -> Doc:
    result: Doc = doc["paths"][PAYMENTS]["get"]
    return result


def create_op(doc: Doc) -> Doc:
    result: Doc = doc["paths"][PAYMENTS]["post"]
    return result


def rename_key(mapping: Doc, old: str, new: str) -> None:
    mapping[new] = mapping.pop(old)


@dataclass(frozen=True)
class Case:
    name: str
    edit: Edit
    rule: str | None
    """The rule the edit must fire (None: the edit must produce no change at all)."""
    message: str = ""
    """Text the change's message must contain."""
    old_edit: Edit | None = None
    """An edit of both versions before `edit`, when the case needs another starting point."""


def _edits(*edits: Edit) -> Edit:
    def apply(doc: Doc) -> None:
        for edit in edits:
            edit(doc)

    return apply


def _set(getter: Callable[[Doc], Doc], key: str, value: Any) -> Edit:
    return lambda doc: getter(doc).__setitem__(key, value)


def _drop(getter: Callable[[Doc], Doc], key: str) -> Edit:
    return lambda doc: getter(doc).pop(key)


def _append(getter: Callable[[Doc], list[Any]], value: Any) -> Edit:
    return lambda doc: getter(doc).append(value)


def _required(name: str) -> Callable[[Doc], list[Any]]:
    return lambda doc: schema(doc, name)["required"]


def _props(name: str) -> Callable[[Doc], Doc]:
    return lambda doc: schema(doc, name)["properties"]


def _field(name: str, field: str) -> Callable[[Doc], Doc]:
    return lambda doc: prop(doc, name, field)


def _account(doc: Doc) -> Doc:
    return doc["paths"][PAYMENTS]["parameters"][0]


def _limit(doc: Doc) -> Doc:
    result: Doc = list_op(doc)["parameters"][0]
    return result


def _responses(getter: Callable[[Doc], Doc]) -> Callable[[Doc], Doc]:
    return lambda doc: getter(doc)["responses"]


def _rule(doc: Doc) -> Doc:
    result: Doc = doc["x-business-rules"][0]
    return result


def _remove_required(name: str, field: str) -> Edit:
    return lambda doc: schema(doc, name)["required"].remove(field)


def _version(value: str) -> Edit:
    return lambda doc: doc["info"].__setitem__("version", value)


QUERY_STATUS = {"name": "status", "in": "query", "required": False, "schema": {"type": "string"}}
TENANT_HEADER = {"name": "X-Tenant", "in": "header", "required": True, "schema": {"type": "string"}}
ANY_OBJECT = {"description": "d", "content": {"application/json": {"schema": {"type": "object"}}}}
PROBLEM = {"description": "Too large.", "content": {"application/problem+json": {"schema": {}}}}


def with_attempts(doc: Doc) -> None:
    """A numeric response field, a fresh dict per document (the cases edit the new one)."""
    _props("Payment")(doc)["attempts"] = {"type": "integer", "minimum": 0, "maximum": 10}


BREAKING: list[Case] = [
    Case("operation removed", _drop(lambda d: d["paths"], "/health/live"), "operation-removed"),
    Case("operation path renamed",
         lambda d: rename_key(d["paths"], "/health/live", "/health/alive"), "operation-path-changed"),
    Case("operationId renamed",
         _set(lambda d: d["paths"]["/health/live"]["get"], "operationId", "getAlive"),
         "operation-id-changed"),
    Case("parameter removed", _set(list_op, "parameters", []), "request-parameter-removed"),
    Case("parameter renamed", _set(_limit, "name", "page_size"), "request-parameter-removed",
         "renamed to `page_size`"),
    Case("parameter became required", _set(_limit, "required", True),
         "request-parameter-became-required"),
    Case("required parameter added", _append(lambda d: list_op(d)["parameters"], TENANT_HEADER),
         "request-required-parameter-added"),
    Case("request property removed", _drop(_props("PaymentCreate"), "reference"),
         "request-property-removed"),
    Case("request property renamed",
         lambda d: rename_key(_props("PaymentCreate")(d), "reference", "bank_reference"),
         "request-property-removed", "renamed to `bank_reference`"),
    Case("request field became required", _append(_required("PaymentCreate"), "method"),
         "request-property-became-required"),
    Case("required request field added",
         _edits(_set(_props("PaymentCreate"), "channel", {"type": "string"}),
                _append(_required("PaymentCreate"), "channel")),
         "request-required-property-added"),
    Case("request body became required", _set(lambda d: create_op(d)["requestBody"], "required", True),
         "request-body-became-required",
         old_edit=_set(lambda d: create_op(d)["requestBody"], "required", False)),
    Case("request type changed", _set(_field("PaymentCreate", "amount"), "type", "number"),
         "request-type-changed", "string no longer accepted"),
    Case("request no longer accepts null", _set(_field("PaymentCreate", "reference"), "type", "string"),
         "request-type-changed", "null no longer accepted"),
    Case("request format added", _set(_field("PaymentCreate", "amount"), "format", "decimal"),
         "request-format-changed"),
    Case("request maxLength tightened", _set(_field("PaymentCreate", "reference"), "maxLength", 32),
         "request-constraint-tightened", "maxLength: 64 → 32"),
    Case("request parameter minimum tightened", _set(lambda d: _limit(d)["schema"], "minimum", 5),
         "request-constraint-tightened", "minimum: 1 → 5"),
    Case("request pattern added",
         _set(_field("PaymentCreate", "reference"), "pattern", "^[0-9]+$"),
         "request-constraint-tightened", "pattern"),
    Case("request enum added to a free field",
         _set(_field("PaymentCreate", "reference"), "enum", ["a", "b"]),
         "request-constraint-tightened", "enum"),
    Case("request object closed", _set(lambda d: schema(d, "PaymentCreate"), "additionalProperties", False),
         "request-constraint-tightened", "additionalProperties",
         old_edit=_drop(lambda d: schema(d, "PaymentCreate"), "additionalProperties")),
    Case("request pattern refuses cents",
         _set(_field("PaymentCreate", "amount"), "pattern", "^[0-9]{1,12}\\.00$"),
         "request-pattern-tightened", "valid before, now refused"),
    Case("request parameter pattern accepts fewer account numbers",
         _set(lambda d: _account(d)["schema"], "pattern", "^[1-9][0-9]{8}$"),
         "request-pattern-tightened", "valid before, now refused"),
    Case("request format rewritten narrower",
         _set(_field("PaymentCreate", "reference"), "format", "date-time"),
         "request-format-changed", "'date' → 'date-time'",
         old_edit=_set(_field("PaymentCreate", "reference"), "format", "date")),
    Case("request enum value removed", _set(_field("PaymentCreate", "method"), "enum", ["cash"]),
         "request-enum-value-removed", '"card"'),
    Case("request media type changed",
         lambda d: rename_key(create_op(d)["requestBody"]["content"], "application/json",
                              "application/x-www-form-urlencoded"),
         "request-media-type-changed"),
    Case("response required property removed",
         _edits(_drop(_props("Payment"), "amount"), _remove_required("Payment", "amount")),
         "response-required-property-removed"),
    Case("response property became optional", _remove_required("Payment", "method"),
         "response-property-became-optional"),
    Case("response may be null", _set(_field("Payment", "received_at"), "type", ["string", "null"]),
         "response-type-changed", "null may now be returned"),
    Case("response format changed", _set(_field("Payment", "received_at"), "format", "date"),
         "response-format-changed", "'date-time' → 'date'"),
    Case("response maxLength loosened", _set(_field("Payment", "amount"), "maxLength", 32),
         "response-constraint-loosened", "maxLength: 16 → 32"),
    Case("response maximum loosened", _set(_field("Payment", "attempts"), "maximum", 20),
         "response-constraint-loosened", "maximum: 10 → 20", old_edit=with_attempts),
    Case("response pattern dropped", _drop(_field("Payment", "amount"), "pattern"),
         "response-constraint-loosened", "pattern"),
    Case("response enum value added",
         _set(_field("Payment", "method"), "enum", ["cash", "card", "zelle"]),
         "response-enum-value-added", '"zelle"'),
    Case("success status removed",
         lambda d: rename_key(_responses(create_op)(d), "201", "200"),
         "response-success-status-removed"),
    Case("response media type removed",
         lambda d: rename_key(list_op(d)["responses"]["200"]["content"], "application/json",
                              "application/vnd.billing+json"),
         "response-media-type-removed"),
    Case("required response header removed",
         _drop(lambda d: list_op(d)["responses"]["200"], "headers"),
         "response-required-header-removed"),
    Case("auth added", _drop(lambda d: d["paths"]["/health/live"]["get"], "security"),
         "security-added"),
    Case("business rule reworded", _set(_rule, "statement", "A payment's amount = allocations."),
         "business-rule-changed"),
    Case("business rule removed", _set(lambda d: d, "x-business-rules", []),
         "business-rule-removed"),
]  # fmt: skip


def _add_readiness(doc: Doc) -> None:
    doc["paths"]["/health/ready"] = {
        "get": {"operationId": "getReadiness", "security": [], "responses": {"200": ANY_OBJECT}}
    }


def _rule_about(operations: list[str], schemas: list[str]) -> Doc:
    return {
        "id": "readiness.meaning",
        "statement": "Ready means the store answers.",
        "applies-to": {"operations": operations, "schemas": schemas},
    }


NEEDS_A_LOOK: list[Case] = [
    Case("response pattern rewritten wider",
         _set(_field("Payment", "amount"), "pattern", "^[0-9]{1,12}(\\.[0-9]{2})?$"),
         "response-pattern-loosened", "may now be returned"),
    Case("response optional property removed", _drop(_props("Payment"), "reference"),
         "response-optional-property-removed"),
    Case("error status removed", _drop(_responses(list_op), "404"), "response-error-status-removed"),
    Case("success status added", _set(_responses(create_op), "200", ANY_OBJECT),
         "response-success-status-added"),
    Case("request branches changed",
         _set(_field("PaymentCreate", "reference"), "anyOf", [{"type": "string"}, {"type": "integer"}]),
         "request-composition-changed"),
    Case("response branches changed",
         _set(_field("Payment", "reference"), "oneOf", [{"type": "string"}, {"type": "integer"}]),
         "response-composition-changed"),
    Case("business rule applied elsewhere",
         _set(_rule, "applies-to", {"operations": ["createPayment", "listPayments"]}),
         "business-rule-scope-changed"),
    Case("business rule added",
         _append(lambda d: d["x-business-rules"], {"id": "currency.payment", "statement": "Same currency."}),
         "business-rule-added"),
    Case("business rule added for a new operation and an old schema",
         _edits(_add_readiness,
                _append(lambda d: d["x-business-rules"], _rule_about(["getReadiness"], ["Payment"]))),
         "business-rule-added"),
    Case("business rule added about a new operation, naming no schema, beside an old one",
         _edits(_add_readiness,
                _append(lambda d: d["x-business-rules"], _rule_about(["getReadiness", "listPayments"], []))),
         "business-rule-added"),
    Case("business rule added for every operation",
         _append(lambda d: d["x-business-rules"], _rule_about(["*"], [])), "business-rule-added"),
    Case("version went down", _version("0.9.0"), "version-decreased", old_edit=None),
]  # fmt: skip

NOT_BREAKING: list[Case] = [
    Case("optional response field added",
         _set(_props("Payment"), "note", {"type": "string"}), "response-property-added"),
    Case("optional request parameter added",
         _append(lambda d: list_op(d)["parameters"], QUERY_STATUS), "request-optional-parameter-added"),
    Case("optional request field added",
         _set(_props("PaymentCreate"), "note", {"type": "string"}), "request-optional-property-added"),
    Case("new error status (413) on an existing operation",
         _set(_responses(create_op), "413", PROBLEM), "response-error-status-added"),
    Case("new operation", _add_readiness, "operation-added"),
    Case("business rule added about a new operation and its new schema only",
         _edits(_add_readiness, _set(lambda d: d["components"]["schemas"], "Readiness", {"type": "object"}),
                _append(lambda d: d["x-business-rules"], _rule_about(["getReadiness"], ["Readiness"]))),
         "business-rule-added-for-new"),
    Case("business rule added about a new schema, shown on an old operation",
         _edits(_set(lambda d: d["components"]["schemas"], "Refund", {"type": "object"}),
                _append(lambda d: d["x-business-rules"], _rule_about(["listPayments"], ["Refund"]))),
         "business-rule-added-for-new"),
    Case("business rule added about a new operation, naming no schema",
         _edits(_add_readiness, _append(lambda d: d["x-business-rules"], _rule_about(["getReadiness"], []))),
         "business-rule-added-for-new"),
    Case("request maxLength loosened", _set(_field("PaymentCreate", "reference"), "maxLength", 128),
         "request-constraint-loosened"),
    Case("request enum value added",
         _set(_field("PaymentCreate", "method"), "enum", ["cash", "card", "zelle"]),
         "request-enum-value-added"),
    Case("request pattern rewritten wider", _set(_field("PaymentCreate", "amount"), "pattern", "^[0-9.]+$"),
         "request-pattern-loosened", "still accepted"),
    Case("request parameter pattern accepts more account numbers",
         _set(lambda d: _account(d)["schema"], "pattern", "^[0-9]{10}$"),
         "request-pattern-loosened"),
    Case("request format dropped", _drop(_field("PaymentCreate", "reference"), "format"),
         "request-format-loosened", old_edit=_set(_field("PaymentCreate", "reference"), "format", "email")),
    Case("response pattern rewritten narrower",
         _set(_field("Payment", "amount"), "pattern", "^[1-9][0-9]{0,11}\\.[0-9]{2}$"),
         "response-pattern-tightened", "was valid before"),
    Case("response format rewritten narrower", _set(_field("Payment", "reference"), "format", "uri"),
         "response-format-tightened", "was valid before",
         old_edit=_set(_field("Payment", "reference"), "format", "uri-reference")),
    Case("request parameter minimum loosened", _set(lambda d: _limit(d)["schema"], "minimum", 0),
         "request-constraint-loosened", "minimum: 1 → 0"),
    Case("response minimum tightened", _set(_field("Payment", "attempts"), "minimum", 1),
         "response-constraint-tightened", "minimum: 0 → 1", old_edit=with_attempts),
    Case("response maxLength tightened", _set(_field("Payment", "amount"), "maxLength", 15),
         "response-constraint-tightened"),
    Case("response enum value removed", _set(_field("Payment", "method"), "enum", ["cash"]),
         "response-enum-value-removed"),
    Case("auth removed", _set(lambda d: d["paths"][PAYMENTS]["get"], "security", []),
         "security-removed"),
    Case("descriptions edited",
         _edits(_set(lambda d: schema(d, "Payment"), "description", "A payment received."),
                _set(list_op, "description", "Payments, newest first."),
                _set(_field("Payment", "amount"), "description", "Two decimals."),
                _set(lambda d: d["info"], "description", "Now with prose.")),
         None),
    Case("`type: [string, 'null']` spelled as anyOf null",
         _set(_props("Payment"), "reference",
              {"anyOf": [{"type": "string", "maxLength": 64}, {"type": "null"}]}), None),
    Case("`type: [string, 'null']` spelled as oneOf null, in a request",
         _set(_props("PaymentCreate"), "reference",
              {"oneOf": [{"type": "null"}, {"type": "string", "maxLength": 64}]}), None),
    Case("`type: [string, 'null']` spelled as 3.0's nullable",
         _set(_props("Payment"), "reference", {"type": "string", "nullable": True, "maxLength": 64}),
         None),
    Case("type list reordered", _set(_field("Payment", "reference"), "type", ["null", "string"]), None),
    Case("path parameter renamed in the template only",
         lambda d: (rename_key(d["paths"], PAYMENTS, "/v1/customers/{account}/payments"),
                    d["paths"]["/v1/customers/{account}/payments"]["parameters"][0].__setitem__(
                        "name", "account")),
         None),
    Case("business rule re-wrapped",
         _set(_rule, "statement", "A payment's  amount =\n allocations + unapplied."), None),
]  # fmt: skip


def diff(case: Case) -> list[Any]:
    old, new = base(), base()
    if case.old_edit is not None:
        case.old_edit(old)
        case.old_edit(new)
    case.edit(new)
    report = diff_contracts(
        contract_from_document(old, Path("old.yaml")), contract_from_document(new, Path("new.yaml"))
    )
    return list(report.changes)


def _fired(case: Case) -> list[Any]:
    changes = diff(case)
    fired = [item for item in changes if item.rule == case.rule and case.message in item.message]
    assert fired, (
        f"{case.name}: expected {case.rule} ({case.message!r}), got {[(c.rule, c.message) for c in changes]}"
    )
    return changes


SEVERITY = {info.id: info.severity for info in CATALOGUE}


@pytest.mark.parametrize("case", BREAKING, ids=lambda case: case.name)
def test_breaking_change_is_an_error_and_needs_a_major_bump(case: Case) -> None:
    changes = _fired(case)
    assert SEVERITY[case.rule or ""] is Severity.ERROR
    assert "breaking-change-without-major-bump" in {item.rule for item in changes}


@pytest.mark.parametrize("case", NEEDS_A_LOOK, ids=lambda case: case.name)
def test_change_that_needs_a_look_is_a_warning_not_an_error(case: Case) -> None:
    changes = _fired(case)
    assert SEVERITY[case.rule or ""] is Severity.WARNING
    assert not [item for item in changes if item.severity is Severity.ERROR], changes


@pytest.mark.parametrize("case", NOT_BREAKING, ids=lambda case: case.name)
def test_change_that_breaks_nobody_is_never_flagged(case: Case) -> None:
    changes = _fired(case) if case.rule else diff(case)
    if case.rule is None:
        assert changes == [], f"{case.name}: {[(c.rule, c.message) for c in changes]}"
    assert all(item.severity is Severity.INFO for item in changes), changes


def test_every_rule_of_the_catalogue_has_a_case() -> None:
    covered = {case.rule for case in (*BREAKING, *NEEDS_A_LOOK, *NOT_BREAKING)}
    covered.add("breaking-change-without-major-bump")
    assert {info.id for info in CATALOGUE} - covered == set()


def test_major_bump_announces_breaking_changes_as_warnings() -> None:
    case = BREAKING[0]
    changes = diff(Case("removed, announced", _edits(case.edit, _version("2.0.0")), None))
    removed = [item for item in changes if item.rule == "operation-removed"]
    assert removed and all(item.severity is Severity.WARNING and item.announced for item in removed)
    assert "1.0.0 → 2.0.0" in removed[0].message
    assert not [item for item in changes if item.severity is Severity.ERROR]


@pytest.mark.parametrize("version", ["1.1.0", "1.0.1", "one", "1.0.0"])
def test_breaking_change_without_major_bump_is_an_error(version: str) -> None:
    changes = diff(Case("removed, minor", _edits(BREAKING[0].edit, _version(version)), None))
    unannounced = [item for item in changes if item.rule == "breaking-change-without-major-bump"]
    assert len(unannounced) == 1 and unannounced[0].severity is Severity.ERROR
    assert f"1.0.0 → {version}" in unannounced[0].message
