"""How a business rule is judged over the run's traffic: a pure function of the ledger.

A `RuleJudge` reads every observation its rule applies to and returns `Findings`
(`inspected` = how many responses exercised the rule), so the report can say per rule how
often it was exercised. Judges never send a request; probes (`conformance/probes/`) do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from billing_toolkit.conformance.checks.base import Findings
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.rules.observations import Ledger, Observation


@dataclass(frozen=True)
class RuleJudge:
    """The judge of one rule id over every response of the run."""

    rule_id: str
    judge: Callable[[Ledger, ContractFacts], Findings]


def amount(value: Any, facts: ContractFacts) -> Decimal | None:
    """A money string as a Decimal; None when malformed (the money check reports that)."""
    if isinstance(value, str) and facts.formats.amount.fullmatch(value):
        return Decimal(value)
    return None


def amounts(values: list[Any], facts: ContractFacts) -> list[Decimal] | None:
    parsed = [amount(value, facts) for value in values]
    return None if any(value is None for value in parsed) else parsed  # type: ignore[return-value]


def report(findings: Findings, seen: Observation, problems: Iterable[str]) -> None:
    """Count `seen` as exercising the rule and add each of its problems, with its exchange."""
    findings.inspected += 1
    for problem in problems:
        findings.add(f"{seen.exchange.describe()}: {problem}", seen.exchange)


def resources_in(
    ledger: Ledger, single: str, listing: str, keys: frozenset[str]
) -> Iterator[tuple[Observation, dict[str, Any]]]:
    """(observation, resource) for every resource with `keys` in a successful response of
    the primary tenant: the body of `single`, each item of a `listing` page."""
    for seen in ledger.of(single, listing):
        found = [seen.body()] if seen.operation_id == single else seen.items()
        for resource in found:
            if isinstance(resource, dict) and keys <= resource.keys():
                yield seen, resource
