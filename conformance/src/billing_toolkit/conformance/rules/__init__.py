"""The business rules of the contract, judged on every response and by the probes.

`judge_rules` turns the run's exchanges (in the order they happened) and the probes'
findings into one outcome per rule id: failed with its first violation, passed with how
many responses exercised it, or skipped with why nothing could exercise it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from billing_toolkit.conformance.checks.base import MAX_VIOLATIONS, Findings
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.outcome import CheckOutcome, judge, skipped
from billing_toolkit.conformance.rules import (
    balance,
    currency,
    echo,
    identifiers,
    invoices,
    pages,
    payments,
)
from billing_toolkit.conformance.rules.base import RuleJudge
from billing_toolkit.conformance.rules.observations import build_ledger
from billing_toolkit.conformance.rules.texts import RULE_TEXTS
from billing_toolkit.contract.rules import BusinessRule, load_rules

JUDGES: tuple[RuleJudge, ...] = (
    *balance.JUDGES,
    *invoices.JUDGES,
    *payments.JUDGES,
    *currency.JUDGES,
    *identifiers.JUDGES,
    *pages.JUDGES,
    *echo.JUDGES,
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
    notes: Mapping[str, str] | None = None,
) -> list[CheckOutcome]:
    """One outcome per selected rule id, from the judges and the probes' findings; `notes`
    (rule id → the data the run lacked for it) are added to the rule's summary."""
    ledger = build_ledger(exchanges, facts, other_tenant_key)
    chosen = set(selected)
    found: dict[str, list[Findings]] = {
        rule_id: list(probed.get(rule_id, [])) for rule_id in chosen
    }
    for rule_judge in JUDGES:
        if rule_judge.rule_id in chosen:
            found[rule_judge.rule_id].append(rule_judge.judge(ledger, facts))
    lacking = notes or {}
    return [
        _outcome(rule_id, found[rule_id], lacking.get(rule_id))
        for rule_id in RULES
        if rule_id in chosen
    ]


def _outcome(rule_id: str, findings: list[Findings], lacking: str | None) -> CheckOutcome:
    """Failed on any violation; skipped (with why) when nothing exercised the rule; passed
    with how often it was exercised, what a probe covered and what data was missing."""
    violations = [v for f in findings for v in f.violations][:MAX_VIOLATIONS]
    inspected = sum(f.inspected for f in findings)
    data = [f"data: {lacking}"] if lacking else []
    if inspected == 0 and not violations:
        reasons = [f.unable for f in findings if f.unable] or [
            "no response of the run exercised it"
        ]
        return skipped(rule_id, "; ".join([reasons[0], *data]))
    notes = [f.passed_summary for f in findings if f.passed_summary]
    summary = "; ".join([f"exercised {inspected} times", *notes, *data])
    return judge(
        rule_id,
        violations,
        inspected=inspected,
        passed_summary=summary,
        remedy=RULE_TEXTS[rule_id][1],
    )
