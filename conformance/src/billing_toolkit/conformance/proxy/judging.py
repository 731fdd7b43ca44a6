"""One exchange judged by everything the kit can decide from a single response.

Three sources, each by its own rule ids, none copied here:

- the contract's schemas (`schema_judge`: operation, request, status, media type, body);
- the kit's response rules (`conformance.checks.RESPONSE_RULES`: `problem_json`,
  `request_id`, `retry_after`, `money`, `totals`), the same definitions `verify` applies;
- the contract's business rules (`conformance.rules.JUDGES`: `balance.net`,
  `invoice.arithmetic`, `request_id.echo`, ...), run over a ledger of this one exchange.

Bias: a rule that needs several responses (a balance against the invoices listed at the same
moment, a page walk, a currency learned from the customer record) is not judged live: its
judge sees one exchange, inspects nothing and stays silent rather than guess from traffic
whose order and completeness the proxy does not control.
"""

from __future__ import annotations

from billing_toolkit.conformance.checks import RESPONSE_RULES
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.proxy.schema_judge import SCHEMA_RULES, SchemaJudge
from billing_toolkit.conformance.proxy.verdict import Judgement
from billing_toolkit.conformance.rules import JUDGES
from billing_toolkit.conformance.rules.observations import build_ledger


class ExchangeJudge:
    """Judges exchanges one at a time against one contract (compiled once, here)."""

    def __init__(self, facts: ContractFacts) -> None:
        self.facts = facts
        self._schemas = SchemaJudge(facts)

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """Every rule id the proxy may report, in report order."""
        return (
            *SCHEMA_RULES,
            *(rule.name for rule in RESPONSE_RULES),
            *(rule_judge.rule_id for rule_judge in JUDGES),
        )

    def judge(self, index: int, exchange: Exchange) -> Judgement:
        judgement = Judgement()
        self._schemas.judge(index, exchange, judgement)
        if exchange.status == 0:
            return judgement
        for rule in RESPONSE_RULES:
            if not rule.applies_to(exchange):
                continue
            judgement.exercised.add(rule.name)
            for message in rule.inspect(exchange, self.facts):
                judgement.add(index, rule.name, f"{exchange.describe()}: {message}")
        ledger = build_ledger([exchange], self.facts, other_tenant_key=None)
        for rule_judge in JUDGES:
            findings = rule_judge.judge(ledger, self.facts)
            if findings.inspected:
                judgement.exercised.add(rule_judge.rule_id)
            for violation in findings.violations:
                judgement.add(index, rule_judge.rule_id, violation.message)
        return judgement
