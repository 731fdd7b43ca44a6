"""The two shapes a project check takes.

A `ResponseRule` judges single responses, so it runs over *every* exchange of the run: the
kit's own requests and everything schemathesis generated. A `Scenario` drives a short
conversation with the API (fetch, compare, replay) and judges the whole of it.
Both carry what the README and the report print: what the check means and how to fix it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from billing_toolkit.conformance.calls import Call, Identifiers, call
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.discovery import TestData
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.http import ApiSession
from billing_toolkit.conformance.outcome import CheckOutcome, Violation, judge, skipped
from billing_toolkit.conformance.settings import KitSettings

if TYPE_CHECKING:
    from billing_toolkit.conformance.checks.booking import Booking

# A failed check keeps this many violations; the first is the one the report reproduces.
MAX_VIOLATIONS = 20


@dataclass(frozen=True)
class ScenarioContext:
    session: ApiSession
    settings: KitSettings
    data: TestData
    facts: ContractFacts
    payments: list[Booking] = field(default_factory=list, compare=False, repr=False)
    """The run's one test payment once booked (`checks/booking.book`): the idempotency
    scenario and probe share it, so a run books one payment, not one each."""

    def call(self, operation_id: str, known: Identifiers | None = None) -> Call:
        """The request to `operation_id` filled by format from the test data (or from `known`,
        for a probe with other identifiers), so no check writes a path by hand."""
        return call(self.facts, operation_id, self.data.identifiers if known is None else known)


@dataclass
class Findings:
    """What a scenario saw: violations, how many things it judged, and a pass summary.

    `unable` says why the scenario could not judge anything (no invoice to look up, ...);
    such a scenario is reported as skipped, never as passed.
    """

    violations: list[Violation] = field(default_factory=list)
    inspected: int = 0
    passed_summary: str = ""
    unable: str | None = None

    def add(self, message: str, exchange: Exchange | None = None) -> None:
        if len(self.violations) < MAX_VIOLATIONS:
            self.violations.append(Violation(message, exchange))


@dataclass(frozen=True)
class ResponseRule:
    """A rule every response it `applies_to` must satisfy; `inspect` lists what is wrong."""

    name: str
    meaning: str
    remedy: str
    applies_to: Callable[[Exchange], bool]
    inspect: Callable[[Exchange, ContractFacts], list[str]]
    nothing_to_inspect: str = "no response to inspect"

    def evaluate(self, exchanges: Iterable[Exchange], facts: ContractFacts) -> CheckOutcome:
        inspected = 0
        violations: list[Violation] = []
        for exchange in exchanges:
            if exchange.status == 0 or not self.applies_to(exchange):
                continue
            inspected += 1
            if len(violations) < MAX_VIOLATIONS:
                violations.extend(
                    Violation(f"{exchange.describe()}: {message}", exchange)
                    for message in self.inspect(exchange, facts)
                )
        if inspected == 0:
            return skipped(self.name, self.nothing_to_inspect)
        return judge(
            self.name,
            violations,
            inspected=inspected,
            passed_summary=f"{inspected} responses conform",
            remedy=self.remedy,
        )


@dataclass(frozen=True)
class Scenario:
    """A conversation with the API; `writes` scenarios run only with --allow-writes."""

    name: str
    meaning: str
    remedy: str
    run: Callable[[ScenarioContext], Findings]
    writes: bool = False
    needs_other_tenant: bool = False

    def skip_reason(self, settings: KitSettings) -> str | None:
        if self.writes and not settings.allow_writes:
            return "writes payments: run with --allow-writes against a test account"
        if self.needs_other_tenant and not settings.other_tenant_key:
            return "needs --other-tenant-key (an API key of another tenant)"
        return None

    def evaluate(self, ctx: ScenarioContext) -> CheckOutcome:
        reason = self.skip_reason(ctx.settings)
        if reason is not None:
            return skipped(self.name, reason)
        findings = self.run(ctx)
        if findings.unable is not None and not findings.violations:
            return skipped(self.name, findings.unable)
        return judge(
            self.name,
            findings.violations,
            inspected=findings.inspected,
            passed_summary=findings.passed_summary,
            remedy=self.remedy,
        )


def always(_: Exchange) -> bool:
    return True
