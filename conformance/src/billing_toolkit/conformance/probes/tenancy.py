"""Another tenant asks for this tenant's data by every identifier kind and with every filter.

The `tenancy` scenario covers each resource by account and invoice number; this probe adds
what it does not send: the customer lookup by phone, national ID and account number, and
every list filter (status, period) and page size, each compared with the answer for data
that exists nowhere. A success is a leak; a different 404 tells the two apart.
"""

from __future__ import annotations

from billing_toolkit.conformance.calls import Call, paging
from billing_toolkit.conformance.checks.tenancy import MISSING_ACCOUNT, comparable
from billing_toolkit.conformance.http import Identity
from billing_toolkit.conformance.probes.base import Probe, ProbeContext, ProbeFindings, finding
from billing_toolkit.contract.formats import IdentifierFormat

# Values of each lookup kind that match the contract's patterns and that no tenant issues.
MISSING_LOOKUPS = {
    "phone": "+19990000001",
    "national_id": "V-000001",
    "account_number": MISSING_ACCOUNT,
}


def _filters(ctx: ProbeContext) -> list[dict[str, str]]:
    """One query per filter the contract lists for the invoice list, with real values."""
    invoices = ctx.scenario.data.invoices
    status = str(invoices[0]["status"]) if invoices else "open"
    start = str(invoices[-1]["billing_period"]["start"]) if invoices else "2026-01-01"
    limit = paging(ctx.scenario.facts).limit
    return [
        {"status": status},
        {"period_from": start},
        {"period_to": start},
        {"status": status, "period_from": start},
        {limit: "1"},
    ]


def _pairs(ctx: ProbeContext) -> list[tuple[str, Call, str, Call, str]]:
    """(label, request, its identifier, the missing twin, its identifier)."""
    scenario = ctx.scenario
    customer = scenario.data.customer
    lookup = scenario.facts.contract.operations["lookupCustomer"].path.expand()
    pairs = [
        (
            f"lookup by {field}",
            Call(lookup, {field: str(customer[field])}),
            str(customer[field]),
            Call(lookup, {field: missing}),
            missing,
        )
        for field, missing in MISSING_LOOKUPS.items()
        if customer.get(field)
    ]
    account = scenario.data.account_number
    missing_known = {IdentifierFormat.ACCOUNT_NUMBER: MISSING_ACCOUNT}
    for operation_id in ("listInvoices", "listPayments"):
        mine, nobody = scenario.call(operation_id), scenario.call(operation_id, missing_known)
        queries = _filters(ctx) if operation_id == "listInvoices" else _filters(ctx)[-1:]
        pairs += [
            (
                f"{operation_id} {query}",
                mine.with_params(query),
                account,
                nobody.with_params(query),
                MISSING_ACCOUNT,
            )
            for query in queries
        ]
    return pairs


def run(ctx: ProbeContext) -> ProbeFindings:
    found: ProbeFindings = {}
    isolation = finding(found, "tenancy.isolation")
    session = ctx.scenario.session
    for label, request, identifier, missing, missing_identifier in _pairs(ctx):
        foreign = session.send(request, identity=Identity.OTHER)
        absent = session.send(missing, identity=Identity.OTHER)
        isolation.inspected += 1
        if foreign.status != 404:
            isolation.add(
                f"{label} with another tenant's key: expected 404, got {foreign.describe()}",
                foreign,
            )
        elif comparable(foreign, identifier) != comparable(absent, missing_identifier):
            isolation.add(
                f"{label} with another tenant's key: the 404 differs from the one "
                "for data that does not exist",
                foreign,
            )
    return found


PROBE = Probe(
    name="tenancy_every_filter", rules=("tenancy.isolation",), run=run, needs_other_tenant=True
)
