"""The contract kernel: one operation model, one matcher, the formats and the masking policy,
each held to the broken input a real contract or a real request would bring."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from billing_toolkit.contract import ContractError
from billing_toolkit.contract.document import inline, load
from billing_toolkit.contract.formats import (
    IdentifierFormat,
    contract_formats,
    formats_from_document,
)
from billing_toolkit.contract.masking import hide, mask
from billing_toolkit.contract.matching import OperationMatcher
from billing_toolkit.contract.operations import contract_from_document, load_contract
from billing_toolkit.contract.templates import PathTemplate


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return load()


def test_every_operation_is_modelled_with_its_auth_statuses_and_parameters() -> None:
    contract = load_contract()
    payment = contract.operations["createPayment"]
    assert (payment.method, payment.path.template) == (
        "POST",
        "/v1/customers/{accountNumber}/payments",
    )
    assert payment.requires_auth and payment.writes and payment.body_required
    assert payment.success_status == 201 and {400, 404, 409, 422} <= payment.statuses
    assert payment.parameter("header", "Idempotency-Key") is not None
    assert payment.error_codes()[409] == "idempotency_conflict"
    liveness = contract.operations["getLiveness"]
    assert not liveness.requires_auth and not liveness.writes


def test_the_contract_is_parsed_once_however_its_path_is_spelled() -> None:
    from billing_toolkit.contract import CONTRACT_DIR

    assert load_contract() is load_contract(CONTRACT_DIR / ".." / "contract" / "openapi.yaml")


def test_a_duplicated_operation_id_is_refused(document: dict[str, Any]) -> None:
    broken = copy.deepcopy(document)
    broken["paths"]["/v1/plans"]["get"]["operationId"] = "getBalance"
    with pytest.raises(ContractError, match="getBalance is used twice"):
        contract_from_document(broken)


def test_a_remote_reference_is_refused_rather_than_half_read(document: dict[str, Any]) -> None:
    broken = copy.deepcopy(document)
    broken["components"]["schemas"]["Amount"] = {"$ref": "https://example.com/amount.json"}
    with pytest.raises(ContractError, match="only local references"):
        contract_from_document(broken)


def test_inlining_merges_siblings_of_a_reference_over_its_target(document: dict[str, Any]) -> None:
    node = {"$ref": "#/components/schemas/Amount", "description": "what is owed"}
    assert inline(document, node) == {
        **document["components"]["schemas"]["Amount"],
        "description": "what is owed",
    }


@pytest.mark.parametrize(
    "path",
    ["/v1/invoices/INV-2026-000001/extra", "/v1/invoices/", "/v1/invoicesX/INV-2026-000001"],
)
def test_a_template_parameter_is_one_whole_segment(path: str) -> None:
    assert PathTemplate("/v1/invoices/{invoiceNumber}").match(path) is None


def test_a_template_expands_each_value_as_one_encoded_segment() -> None:
    template = PathTemplate("/v1/customers/{accountNumber}/balance")
    assert template.names == ("accountNumber",)
    assert template.expand(accountNumber="10/../x") == "/v1/customers/10%2F..%2Fx/balance"
    assert template.match(template.expand(accountNumber="1000004821")) == {
        "accountNumber": "1000004821"
    }


def test_the_matcher_lets_contract_order_decide_like_starlette() -> None:
    contract = contract_from_document(
        {
            "paths": {
                "/v1/things/special": {"get": {"operationId": "special", "responses": {}}},
                "/v1/things/{id}": {"get": {"operationId": "thing", "responses": {}}},
                "/v1/other/{id}": {"get": {"operationId": "otherById", "responses": {}}},
                "/v1/other/fixed": {"get": {"operationId": "otherFixed", "responses": {}}},
            }
        }
    )
    matcher = OperationMatcher(contract.operations.values())
    assert matcher.match("GET", "/v1/things/special")[0].operation_id == "special"  # type: ignore[index]
    assert matcher.match("GET", "/v1/things/7") == (contract.operations["thing"], {"id": "7"})
    assert matcher.match("GET", "/v1/other/fixed")[0].operation_id == "otherById"  # type: ignore[index]
    assert matcher.match("HEAD", "/v1/things/7")[0].operation_id == "thing"  # type: ignore[index]
    assert matcher.match("get", "/v1/things/7") is None  # as sent, like Starlette's router
    assert matcher.operation_for("get", "/v1/things/7") is contract.operations["thing"]
    assert matcher.match("POST", "/v1/things/7") is None
    assert matcher.methods("/v1/things/7") == ["GET", "HEAD"]


def test_formats_follow_the_document_not_a_copy(document: dict[str, Any]) -> None:
    formats = contract_formats()
    assert formats.identifier(IdentifierFormat.INVOICE_NUMBER).fullmatch("INV-2026-008263")
    assert not formats.identifier(IdentifierFormat.INVOICE_NUMBER).fullmatch("INV-2026-8263")
    assert formats.amount.fullmatch("-5.00") and not formats.positive_amount.fullmatch("0.00")
    assert {"amount_due", "net_balance", "total"} <= formats.money_fields
    changed = copy.deepcopy(document)
    changed["components"]["schemas"]["InvoiceNumber"]["pattern"] = "^FAC-[0-9]{8}$"
    altered = formats_from_document(changed)
    assert altered.identifier(IdentifierFormat.INVOICE_NUMBER).fullmatch("FAC-12345678")
    assert altered.searchable(IdentifierFormat.INVOICE_NUMBER) == "(?:FAC-[0-9]{8})"


@pytest.mark.parametrize(
    ("identifier", "masked"),
    [
        ("1000004821", "10******21"),
        ("+584121234567", "+58********67"),
        ("V-12345678", "V-12****78"),
        ("J-12345678-9", "J-12*****8-9"),
        ("1234", "****"),
    ],
)
def test_one_masking_policy_for_every_identifier(identifier: str, masked: str) -> None:
    assert hide(identifier) == masked


def test_masking_text_hides_every_identifier_shaped_number_and_keeps_the_rest() -> None:
    text = "GET /v1/customers/1000004821 phone=+584121234567 id=V-12345678 invoice INV-2026-008263"
    assert mask(text) == (
        "GET /v1/customers/10******21 phone=+58********67 id=V-12****78 invoice INV-2026-008263"
    )
    assert mask("no digits here") == "no digits here"


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("ref-1000004821", "ref-10******21"),
        ("/v1/customers/ACME-1000004821/balance", "/v1/customers/ACME-10******21/balance"),
        ("cuenta-1000004821-b", "cuenta-10******21-b"),
        ("--1000004821", "--10******21"),
        ("PAY-0000004821 PRP-0000000017", "PAY-0000004821 PRP-0000000017"),
    ],
)
def test_an_account_number_after_a_hyphen_is_masked_too(text: str, masked: str) -> None:
    """A hyphen is how subscribers and clients glue an account to a prefix (`ref-`, a
    tenant's `ACME-`): it once let the number through in clear. Our own payment and report
    ids (ten digits with leading zeros) stay readable."""
    assert mask(text) == masked
