"""`request_id.echo` and `tenancy.isolation` on every response, whoever sent it.

The request-id judgement is the `request_id` response rule's (one definition), applied to
every exchange, the other tenant's included. Tenancy, response by response: a success
answered to the other tenant's key must never carry an account the primary tenant owns.
"""

from __future__ import annotations

from billing_toolkit.conformance.checks.base import Findings
from billing_toolkit.conformance.checks.request_id import request_id_violations
from billing_toolkit.conformance.checks.totals import resources
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.rules.base import RuleJudge
from billing_toolkit.conformance.rules.observations import Ledger


def judge_echo(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    for seen in ledger.observations:
        findings.inspected += 1
        for problem in request_id_violations(seen.exchange, facts):
            findings.add(f"{seen.exchange.describe()}: {problem}", seen.exchange)
    return findings


def judge_isolation(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    for seen in ledger.observations:
        if not seen.other_tenant:
            continue
        findings.inspected += 1
        if not seen.ok:
            continue
        owned = {
            str(resource["account_number"])
            for resource in resources(seen.body(), frozenset({"account_number"}))
        } & ledger.primary_accounts
        if owned:
            findings.add(
                f"{seen.exchange.describe()}: the other tenant's key was answered with data of "
                f"account {min(owned)}, which belongs to the tenant under test",
                seen.exchange,
            )
    return findings


JUDGES = (
    RuleJudge("request_id.echo", judge_echo),
    RuleJudge("tenancy.isolation", judge_isolation),
)
