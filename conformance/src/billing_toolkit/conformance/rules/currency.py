"""`currency.account`: everything of an account is in the account's currency.

The account's currency is what its customer record said (getCustomer or lookupCustomer, in
the same run); a balance, invoice or payment of an account the kit never read is not judged.
"""

from __future__ import annotations

from billing_toolkit.conformance.checks.base import Findings
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.rules.base import RuleJudge
from billing_toolkit.conformance.rules.invoices import invoices
from billing_toolkit.conformance.rules.observations import Ledger
from billing_toolkit.conformance.rules.payments import payments


def judge_account_currency(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    balances = [(seen, seen.body()) for seen in ledger.of("getBalance")]
    resources = [*balances, *invoices(ledger), *payments(ledger)]
    for seen, resource in resources:
        if not isinstance(resource, dict):
            continue
        owner = resource.get("account_number") or seen.account
        expected = ledger.currencies.get(str(owner))
        if expected is None or "currency" not in resource:
            continue
        findings.inspected += 1
        if resource["currency"] != expected:
            what = resource.get("invoice_number") or resource.get("payment_id") or "the balance"
            findings.add(
                f"{seen.exchange.describe()}: {what} of account {owner} is in "
                f"{resource['currency']!r}, the account is billed in {expected!r}",
                seen.exchange,
            )
    return findings


JUDGES = (RuleJudge("currency.account", judge_account_currency),)
