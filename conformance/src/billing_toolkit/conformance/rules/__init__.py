"""The business rules of the contract, judged on every response and by the probes.

`judge_rules` turns the run's exchanges (in the order they happened) and the probes'
findings into one outcome per rule id: failed with its first violation, passed with how
many responses exercised it, skipped when a setting kept the run from exercising it, or not
exercised when the data never showed the case it needs (`rules.needs`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from billing_toolkit.conformance.checks.base import MAX_VIOLATIONS, Findings
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.outcome import CheckOutcome, judge, not_exercised, skipped
from billing_toolkit.conformance.rules import (
    balance,
    currency,
    customers,
    echo,
    identifiers,
    invoices,
    pages,
    payments,
    rates,
    reports,
    subscriptions,
)
from billing_toolkit.conformance.rules.base import RuleJudge
from billing_toolkit.conformance.rules.needs import missing_for, unmet
from billing_toolkit.conformance.rules.observations import build_ledger
from billing_toolkit.conformance.rules.texts import RULE_TEXTS
from billing_toolkit.contract.rules import BusinessRule, load_rules

JUDGES: tuple[RuleJudge, ...] = (
    *balance.JUDGES,
    *invoices.JUDGES,
    *payments.JUDGES,
    *subscriptions.JUDGES,
    *customers.JUDGES,
    *currency.JUDGES,
    *identifiers.JUDGES,
    *pages.JUDGES,
    *echo.JUDGES,
    *rates.JUDGES,
    *reports.JUDGES,
)

RULES: dict[str, BusinessRule] = load_rules()
"""The bundled contract's rules (a run's own contract is read in `judge_rules`)."""


def rule_entries() -> list[tuple[str, str, str]]:
    """(rule id, what it means and how it is checked, how to fix it) for the catalogue."""
    return [
        (rule_id, f"{rule.statement} Checked on: {RULE_TEXTS[rule_id][0]}.", RULE_TEXTS[rule_id][1])
        for rule_id, rule in RULES.items()
    ]


def judge_rules(
    exchanges: Iterable[Exchange],
    facts: ContractFacts,
    probed: Mapping[str, list[Findings]],
    *,
    other_tenant_key: str | None,
    selected: Iterable[str],
    accounts_read: int = 1,
) -> list[CheckOutcome]:
    """One outcome per selected rule id, from the judges and the probes' findings; a rule
    whose needed case (`rules.needs`) none of the `accounts_read` showed is not exercised."""
    ledger = build_ledger(exchanges, facts, other_tenant_key)
    chosen = set(selected)
    found: dict[str, list[Findings]] = {
        rule_id: list(probed.get(rule_id, [])) for rule_id in chosen
    }
    for rule_judge in JUDGES:
        if rule_judge.rule_id in chosen:
            found[rule_judge.rule_id].append(rule_judge.judge(ledger, facts))
    missing = unmet(ledger, facts)
    where = f"among the {accounts_read} account{'s' if accounts_read != 1 else ''} read"
    return [
        _outcome(rule_id, found[rule_id], missing_for(rule_id, missing), where)
        for rule_id in RULES
        if rule_id in chosen
    ]


def _outcome(
    rule_id: str, findings: list[Findings], lacking: list[str], where: str
) -> CheckOutcome:
    """Failed on any violation; skipped when a setting kept the run from exercising the
    rule (with why); not exercised when the data never gave it a case, or not the case it
    needs; passed with how often it was exercised and what a probe covered."""
    violations = [v for f in findings for v in f.violations][:MAX_VIOLATIONS]
    inspected = sum(f.inspected for f in findings)
    if violations:
        return judge(
            rule_id,
            violations,
            inspected=inspected,
            passed_summary="",
            remedy=RULE_TEXTS[rule_id][1],
        )
    reasons = [f.unable for f in findings if f.unable]
    if inspected == 0 and reasons:
        return skipped(rule_id, reasons[0])
    if inspected == 0:
        return not_exercised(rule_id, "no response of the run exercised it")
    if lacking:
        return not_exercised(rule_id, f"no {', no '.join(lacking)} {where}", inspected=inspected)
    notes = [f.passed_summary for f in findings if f.passed_summary]
    summary = "; ".join([f"exercised {inspected} times", *notes])
    return judge(rule_id, [], inspected=inspected, passed_summary=summary, remedy="")
