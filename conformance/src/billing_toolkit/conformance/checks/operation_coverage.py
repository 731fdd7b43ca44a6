"""Every operation answered at least one request with a 2xx.

A run where an operation only ever answered 4xx looks green while proving nothing about
its success path (schemathesis#1327): a wrong route, a broken auth set-up or test data
that does not exist. This check reads every exchange of the run (the kit's and
schemathesis's) and names the operations that never succeeded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.outcome import CheckOutcome, Violation, judge
from billing_toolkit.conformance.settings import KitSettings

NAME = "operation_coverage"


@dataclass(frozen=True)
class CoverageCheck:
    name: str
    meaning: str
    remedy: str

    def evaluate(
        self, exchanges: Iterable[Exchange], facts: ContractFacts, settings: KitSettings
    ) -> CheckOutcome:
        operations = facts.contract.operations.values()
        expected = [op for op in operations if settings.allow_writes or not op.writes]
        succeeded: set[str] = set()
        seen = 0
        for exchange in exchanges:
            operation = facts.matcher.operation_for(exchange.method, exchange.path)
            if operation is not None:
                seen += 1
                if 200 <= exchange.status < 300:
                    succeeded.add(operation.operation_id)
        missing = [op.operation_id for op in expected if op.operation_id not in succeeded]
        violations = [Violation(f"no 2xx response from: {', '.join(missing)}")] if missing else []
        not_run = "" if settings.allow_writes else " (write operations excluded: no --allow-writes)"
        return judge(
            self.name,
            violations,
            inspected=seen,
            passed_summary=f"all {len(expected)} operations answered 2xx{not_run}",
            remedy=self.remedy,
        )


CHECK = CoverageCheck(
    name=NAME,
    meaning=(
        "Across all requests of the run, every operation of the contract (write operations "
        "only with --allow-writes) answered at least once with a 2xx, so no operation passes "
        "on error responses alone."
    ),
    remedy=(
        "Check the route and method of the named operation and that the test account has "
        "data for it (a subscription, at least one invoice and payment); then rerun."
    ),
)
