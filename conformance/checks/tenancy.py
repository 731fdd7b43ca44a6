"""Another tenant's resource answers exactly like a missing one: 404, same body shape.

"Not yours" must not be distinguishable from "does not exist", or a key of one operator
could enumerate the other's invoices and accounts. The kit reads the test account's data
with the other tenant's key and compares each answer with the one for an identifier that
exists nowhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance.checks.base import Findings, Scenario, ScenarioContext
from conformance.exchange import Exchange
from conformance.http import Identity

# Identifiers that match the contract's patterns but that no implementation issues
# (account numbers start with the tenant's prefix, invoice years are real years).
MISSING_ACCOUNT = "9999999999"
MISSING_INVOICE = "INV-0001-000001"
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
    template: str
    identifier: str
    missing_identifier: str

    def path(self, identifier: str) -> str:
        return self.template.format(id=identifier)


def _probes(ctx: ScenarioContext) -> list[Probe]:
    account = ctx.data.account_number
    probes = [
        Probe(
            f"customer {suffix or 'record'}",
            "/v1/customers/{id}" + suffix,
            account,
            MISSING_ACCOUNT,
        )
        for suffix in ("", "/subscription", "/balance", "/invoices", "/payments")
    ]
    if ctx.data.invoice_number is not None:
        probes.append(
            Probe("invoice", "/v1/invoices/{id}", ctx.data.invoice_number, MISSING_INVOICE)
        )
    return probes


def run(ctx: ScenarioContext) -> Findings:
    findings = Findings(passed_summary="the other tenant gets 404s identical to missing data")
    session = ctx.session
    key_works = session.get("/v1/plans", identity=Identity.OTHER)
    if key_works.status != 200:
        findings.add(f"the other tenant's key is not accepted: {key_works.describe()}", key_works)
        return findings
    for probe in _probes(ctx):
        foreign = session.get(probe.path(probe.identifier), identity=Identity.OTHER)
        missing = session.get(probe.path(probe.missing_identifier), identity=Identity.OTHER)
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
