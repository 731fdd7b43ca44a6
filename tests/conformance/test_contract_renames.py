"""Renaming a path or a parameter in the contract needs no edit in the kit.

Every request the kit builds (discovery, the sweep, the rate-limit probe, every scenario,
the parameters pinned for schemathesis) comes from the operation table. So against a
contract whose paths and parameter names are all renamed, each request still names a
documented operation and sends documented parameters only.
"""

from __future__ import annotations

import copy
from typing import Any

from billing_toolkit.conformance.calls import Call, paging
from billing_toolkit.conformance.checks import SCENARIOS, ScenarioContext
from billing_toolkit.conformance.checks.validation import malformed_queries
from billing_toolkit.conformance.contract_facts import ContractFacts, facts_from_spec, load_facts
from billing_toolkit.conformance.discovery import TestData as Data  # not a pytest class
from billing_toolkit.conformance.discovery import discover
from billing_toolkit.conformance.probes import reports
from billing_toolkit.conformance.probes.base import ProbeContext
from billing_toolkit.conformance.runner import CHECK_NAMES
from billing_toolkit.conformance.schemathesis_phase import pinned_parameters
from billing_toolkit.conformance.settings import build_settings
from billing_toolkit.conformance.sweep import provoke_rate_limit, sweep
from billing_toolkit.contract.document import load
from tests.conformance.fakes import ACCOUNT, INVOICE, PHONE, ExampleApi

RENAMED_PATHS = (
    ("/v1/customers/{accountNumber}", "/v2/accounts/{account}"),
    ("/v1/invoices/{invoiceNumber}", "/v2/bills/{number}"),
    ("/v1/customer-lookup", "/v2/who"),
    ("/v1/plans", "/v2/catalogue"),
    ("/health/", "/status/"),
)
RENAMED_PARAMETERS = {
    "accountNumber": "account",
    "invoiceNumber": "number",
    "phone": "msisdn",
    "national_id": "cedula",
    "account_number": "account_no",
    "status": "state",
    "period_from": "from_date",
    "period_to": "to_date",
    "limit": "page_size",
    "cursor": "page_token",
}


def _rename_parameters(node: Any) -> None:
    """Rename, in place, every parameter object (a mapping with `name` and `in`)."""
    if isinstance(node, dict):
        if "in" in node and node.get("name") in RENAMED_PARAMETERS:
            node["name"] = RENAMED_PARAMETERS[node["name"]]
        for value in node.values():
            _rename_parameters(value)
    elif isinstance(node, list):
        for value in node:
            _rename_parameters(value)


def renamed_contract() -> ContractFacts:
    """The bundled contract with every path and every parameter the kit fills renamed."""
    spec = copy.deepcopy(load())
    _rename_parameters(spec)
    paths = {}
    for path, item in spec["paths"].items():
        for old, new in RENAMED_PATHS:
            path = new + path.removeprefix(old) if path.startswith(old) else path
        paths[path] = item
    spec["paths"] = paths
    return facts_from_spec(spec)


def undocumented(facts: ContractFacts, calls: list[Call]) -> list[str]:
    """Each request no operation documents, and each query parameter its operation lacks."""
    problems: list[str] = []
    for call in calls:
        operation = facts.matcher.operation_for(call.method, call.path)
        if operation is None:
            problems.append(f"{call.method} {call.path}")
            continue
        declared = {p.name for p in operation.parameters if p.location == "query"}
        problems += [
            f"{operation.operation_id}?{name}" for name in call.params if name not in declared
        ]
    return problems


def test_every_request_the_kit_builds_follows_renamed_paths_and_parameters() -> None:
    facts = renamed_contract()
    api = ExampleApi(facts)
    settings = build_settings(
        {
            "base_url": "http://api.test",
            "api_key": "k",
            "other_tenant_key": "k2",
            "customer_phone": PHONE,
            "account_number": ACCOUNT,
            "invoice_number": INVOICE,
            "allow_writes": True,
            "rate_limit_probe": 2,
        },
        known_checks=CHECK_NAMES,
    )
    data = discover(api, settings, facts)  # type: ignore[arg-type]
    sweep(api, facts, data, settings.customer_phone)  # type: ignore[arg-type]
    provoke_rate_limit(api, facts, settings.rate_limit_probe)  # type: ignore[arg-type]
    ctx = ScenarioContext(api, settings, data, facts)  # type: ignore[arg-type]
    for scenario in SCENARIOS:
        scenario.run(ctx)
    for probe in (reports.RATES_PROBE, reports.REPORT_PROBE):  # the only callers of 1.1's reads
        probe.evaluate(ProbeContext(ctx, sleep=lambda _: None))
    assert undocumented(facts, api.sent) == []
    reached = {
        operation.operation_id
        for call in api.sent
        if (operation := facts.matcher.operation_for(call.method, call.path)) is not None
    }
    assert reached == set(facts.contract.operations)
    assert pinned_parameters(facts, data) == {"account": ACCOUNT, "number": INVOICE}


def test_malformed_values_follow_the_parameters_schemas_whatever_their_names() -> None:
    facts = renamed_contract()
    listing = facts.contract.operations["listInvoices"]
    assert malformed_queries(listing, paging(facts)) == [
        ("page_size", "0"),
        ("page_size", "101"),
        ("page_size", "ten"),
        ("state", "unpaid"),
        ("from_date", "2026-13-45"),
        ("to_date", "yesterday"),
        ("page_token", "zz-not-a-cursor-zz"),
    ]


def test_schemathesis_pins_the_bundled_contracts_identifier_path_parameters() -> None:
    with_invoice = Data(ACCOUNT, "USD", {}, (), INVOICE)
    without = Data(ACCOUNT, "USD", {}, (), None)
    facts = load_facts()
    assert pinned_parameters(facts, with_invoice) == {
        "accountNumber": ACCOUNT,
        "invoiceNumber": INVOICE,
    }
    assert pinned_parameters(facts, without) == {"accountNumber": ACCOUNT}
