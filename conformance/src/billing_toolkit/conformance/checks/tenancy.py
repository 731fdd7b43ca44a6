"""Another tenant's resource answers exactly like a missing one: 404, same body shape.

"Not yours" must not be distinguishable from "does not exist", or a key of one operator
could enumerate the other's invoices and accounts. The kit reads the test account's data
with the other tenant's key and compares each answer with the one for an identifier that
exists nowhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from billing_toolkit.conformance.calls import PROBE_OPERATION, Call
from billing_toolkit.conformance.checks.base import Findings, Scenario, ScenarioContext
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.http import Identity
from billing_toolkit.contract.formats import IdentifierFormat

# Identifiers that match the contract's patterns but that no implementation issues
# (account numbers start with the tenant's prefix, invoice years are real years).
MISSING_ACCOUNT = "9999999999"
MISSING_INVOICE = "INV-0001-000001"
MISSING: dict[IdentifierFormat, str] = {
    IdentifierFormat.ACCOUNT_NUMBER: MISSING_ACCOUNT,
    IdentifierFormat.INVOICE_NUMBER: MISSING_INVOICE,
}
ACCOUNT_RESOURCES = ("getCustomer", "getSubscription", "getBalance", "listInvoices", "listPayments")
"""The test account's resources the other tenant asks for, in the order they are probed."""
INVOICE_RESOURCE = "getInvoice"
# Members that legitimately differ between any two responses.
VOLATILE_MEMBERS = frozenset({"request_id"})


def comparable(exchange: Exchange, identifier: str) -> tuple[int, str, Any]:
    """Status, media type and body with the identifier blanked out and volatile members gone."""
    body = exchange.json()
    if isinstance(body, dict):
        body = {
            key: value.replace(identifier, "{id}") if isinstance(value, str) else value
            for key, value in body.items()
            if key not in VOLATILE_MEMBERS
        }
    return exchange.status, exchange.media_type, body


@dataclass(frozen=True)
class Probe:
    """A resource of the test tenant and the same kind of resource that does not exist."""

    label: str
    identifier: str
    request: Call
    missing_identifier: str
    missing_request: Call


def _probe(ctx: ScenarioContext, label: str, operation_id: str, kind: IdentifierFormat) -> Probe:
    """The probe of `operation_id` for the test data's identifier of `kind`."""
    identifier, missing = ctx.data.identifiers[kind], MISSING[kind]
    return Probe(
        label,
        identifier,
        ctx.call(operation_id, {kind: identifier}),
        missing,
        ctx.call(operation_id, {kind: missing}),
    )


def _probes(ctx: ScenarioContext) -> list[Probe]:
    """One probe per resource of the test account, labelled by its path below the customer
    record's (`customer /balance`), then the test invoice when there is one."""
    record = ctx.call("getCustomer").path
    probes = [
        _probe(
            ctx,
            f"customer {ctx.call(operation_id).path.removeprefix(record) or 'record'}",
            operation_id,
            IdentifierFormat.ACCOUNT_NUMBER,
        )
        for operation_id in ACCOUNT_RESOURCES
    ]
    if ctx.data.invoice_number is not None:
        probes.append(_probe(ctx, "invoice", INVOICE_RESOURCE, IdentifierFormat.INVOICE_NUMBER))
    return probes


def run(ctx: ScenarioContext) -> Findings:
    findings = Findings(passed_summary="the other tenant gets 404s identical to missing data")
    session = ctx.session
    key_works = session.send(ctx.call(PROBE_OPERATION), identity=Identity.OTHER)
    if key_works.status != 200:
        findings.add(f"the other tenant's key is not accepted: {key_works.describe()}", key_works)
        return findings
    for probe in _probes(ctx):
        foreign = session.send(probe.request, identity=Identity.OTHER)
        missing = session.send(probe.missing_request, identity=Identity.OTHER)
        findings.inspected += 1
        if foreign.status != 404:
            findings.add(
                f"{probe.label} of another tenant: expected 404, got {foreign.describe()}", foreign
            )
        elif comparable(foreign, probe.identifier) != comparable(missing, probe.missing_identifier):
            findings.add(
                f"{probe.label} of another tenant: the 404 differs from the one for a missing "
                f"{probe.label}",
                foreign,
            )
    return findings


SCENARIO = Scenario(
    name="tenancy",
    meaning=(
        "With another tenant's key, the test account's customer record, subscription, "
        "balance, invoices, payments and its invoice by number are each a 404 whose status, "
        "Content-Type and problem body (identifiers and request_id aside) are identical to "
        "the 404 for an identifier that exists nowhere."
    ),
    remedy=(
        "Scope every lookup by the caller's tenant inside the query (WHERE tenant_id = ...) "
        "and return the same not-found problem whether the row is missing or belongs to "
        "another tenant; never a 403, never a different detail text."
    ),
    run=run,
    needs_other_tenant=True,
)
