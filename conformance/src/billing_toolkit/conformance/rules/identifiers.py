"""`identifier.exact` on every lookup answered 200: the record is exactly the one asked for.

Whatever sent the request (a probe's non-canonical form, a near miss, schemathesis), a 200
for `getInvoice`, `getCustomer` or `lookupCustomer` must carry, byte for byte, the
identifier the request named; anything else is a normalised or fuzzy match.
"""

from __future__ import annotations

from billing_toolkit.conformance.checks.base import Findings
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.rules.base import RuleJudge
from billing_toolkit.conformance.rules.observations import Ledger, Observation

PATH_IDENTIFIERS = {
    "getInvoice": ("invoiceNumber", "invoice_number"),
    "getCustomer": ("accountNumber", "account_number"),
}
LOOKUP_FIELDS = ("phone", "national_id", "account_number")


def requested(seen: Observation) -> tuple[str, str] | None:
    """(response field, the exact value the request named) of a lookup, None otherwise."""
    if seen.operation_id in PATH_IDENTIFIERS:
        parameter, member = PATH_IDENTIFIERS[seen.operation_id]
        value = seen.path_params.get(parameter)
        return (member, value) if value is not None else None
    if seen.operation_id == "lookupCustomer":
        given = [name for name in LOOKUP_FIELDS if name in seen.query]
        return (given[0], seen.query[given[0]]) if len(given) == 1 else None
    return None


def judge_exact(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    for seen in ledger.of(*PATH_IDENTIFIERS, "lookupCustomer"):
        asked = requested(seen)
        body = seen.body()
        if asked is None or not isinstance(body, dict):
            continue
        member, value = asked
        findings.inspected += 1
        if body.get(member) != value:
            findings.add(
                f"{seen.exchange.describe()}: asked for {member} {value!r}, "
                f"got the record with {body.get(member)!r}",
                seen.exchange,
            )
    return findings


JUDGES = (RuleJudge("identifier.exact", judge_exact),)
