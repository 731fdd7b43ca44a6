"""The baseline sweep comes from the operation table, and discovery masks what it names."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from billing_toolkit.conformance.calls import Call
from billing_toolkit.conformance.contract_facts import facts_from_spec, load_facts
from billing_toolkit.conformance.discovery import TestData as Data  # not a pytest class
from billing_toolkit.conformance.discovery import discover
from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.runner import CHECK_NAMES
from billing_toolkit.conformance.settings import build_settings
from billing_toolkit.conformance.sweep import baseline_calls
from billing_toolkit.contract.document import load
from tests.conformance.fakes import ACCOUNT, INVOICE, PHONE, CannedSession, success_example

CUSTOMER = success_example(load_facts(), "getCustomer")  # a customer the contract accepts

DATA = Data(ACCOUNT, "USD", {}, (), INVOICE)


def sent(calls: list[Call]) -> set[tuple[str, tuple[tuple[str, str], ...], tuple[str, ...]]]:
    return {(c.path, tuple(sorted(c.params.items())), tuple(c.headers)) for c in calls}


def test_sweep_reads_every_read_operation_with_the_test_data_then_the_deliberate_errors() -> None:
    customer = f"/v1/customers/{ACCOUNT}"
    assert sent(baseline_calls(load_facts(), DATA, PHONE)) == {
        ("/health/live", (), ()),
        ("/health/ready", (), ()),
        ("/v1/plans", (), ()),
        ("/v1/customer-lookup", (("account_number", ACCOUNT),), ()),
        ("/v1/customer-lookup", (("phone", PHONE),), ()),
        (customer, (), ()),
        (f"{customer}/subscription", (), ()),
        (f"{customer}/balance", (), ()),
        (f"{customer}/invoices", (), ()),
        (f"{customer}/payments", (), ()),
        (f"{customer}/payment-reports", (), ()),
        (f"/v1/invoices/{INVOICE}", (), ()),
        # deliberate: 404 invoice_not_found, 400 limit, 400 no identifier, X-Request-Id echo
        ("/v1/invoices/INV-0001-000001", (), ()),
        (f"{customer}/invoices", (("limit", "0"),), ()),
        ("/v1/customer-lookup", (), ()),
        ("/v1/plans", (), ("X-Request-Id",)),
    }


def test_without_an_invoice_or_a_phone_the_sweep_skips_what_it_cannot_fill() -> None:
    bare = Data(ACCOUNT, "USD", {}, (), None)
    paths = {c.path for c in baseline_calls(load_facts(), bare, None)}
    assert f"/v1/invoices/{INVOICE}" not in paths
    assert not any(c.params.get("phone") for c in baseline_calls(load_facts(), DATA, None))


def test_a_read_operation_added_to_the_contract_is_swept_without_an_edit() -> None:
    spec = copy.deepcopy(load())
    balance = spec["paths"]["/v1/customers/{accountNumber}/balance"]
    usage = copy.deepcopy(balance)
    usage["get"]["operationId"] = "getUsage"
    spec["paths"]["/v1/customers/{accountNumber}/usage"] = usage
    write = copy.deepcopy(balance["get"])
    write["operationId"] = "resetBalance"
    balance["post"] = write
    paths = [c.path for c in baseline_calls(facts_from_spec(spec), DATA, None)]
    assert paths.count(f"/v1/customers/{ACCOUNT}/usage") == 1
    assert paths.count(f"/v1/customers/{ACCOUNT}/balance") == 1  # the POST is not swept


@pytest.mark.parametrize(
    ("given", "answers", "message"),
    [
        (
            {"customer_phone": PHONE, "account_number": ACCOUNT},
            {"/v1/customer-lookup": {**CUSTOMER, "account_number": "1000007310"}},
            "--customer-phone belongs to account 10******10, not to --account-number 10******21",
        ),
        ({"customer_phone": PHONE}, {}, "customer with phone +58********67 not found"),
        (
            {"account_number": ACCOUNT},
            {},
            "account 10******21 not found with this API key: GET /v1/customers/10******21 → 404",
        ),
        (
            {"account_number": ACCOUNT},
            {f"/v1/customers/{ACCOUNT}": CUSTOMER},
            (
                "cannot list the invoices of the test account: "
                "GET /v1/customers/10******21/invoices → 404"
            ),
        ),
    ],
)
def test_discovery_errors_mask_the_identifiers_they_name(
    given: dict[str, str], answers: dict[str, Any], message: str
) -> None:
    settings = build_settings(
        {"base_url": "http://api.test", "api_key": "k", **given}, known_checks=CHECK_NAMES
    )
    with pytest.raises(KitError) as raised:
        discover(CannedSession(answers), settings, load_facts())  # type: ignore[arg-type]
    assert message in str(raised.value)
    # The whole message, the request it quotes included, lands in CI logs.
    assert ACCOUNT not in str(raised.value) and PHONE not in str(raised.value)
