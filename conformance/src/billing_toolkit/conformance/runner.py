"""One conformance run: discover the data, exercise the API, judge everything, report.

Order matters: discovery and the sweep come first (they are also the traffic every
response rule judges), read-only scenarios next, the writing scenario last, then
schemathesis, and only then the response rules and operation coverage, which read the
exchanges of everything before them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import httpx

from billing_toolkit.conformance.checks import (
    COVERAGE,
    SCENARIOS,
    VERIFY_RESPONSE_RULES,
    ScenarioContext,
)
from billing_toolkit.conformance.contract_facts import load_facts
from billing_toolkit.conformance.discovery import discover
from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.http import ApiSession
from billing_toolkit.conformance.outcome import CheckOutcome, Status, Violation
from billing_toolkit.conformance.rule_phase import RULE_IDS, start_rule_phase
from billing_toolkit.conformance.schemathesis_phase import NAME as SCHEMATHESIS
from billing_toolkit.conformance.schemathesis_phase import run_schemathesis
from billing_toolkit.conformance.settings import KitSettings
from billing_toolkit.conformance.sweep import provoke_rate_limit, sweep
from billing_toolkit.conformance.writes import Write, writes_made
from billing_toolkit.contract import OPENAPI_PATH

CHECK_NAMES: frozenset[str] = frozenset(
    [rule.name for rule in VERIFY_RESPONSE_RULES]
    + [scenario.name for scenario in SCENARIOS]
    + [COVERAGE.name, SCHEMATHESIS]
    + list(RULE_IDS)
)


class Progress(Protocol):
    """Where a run reports what it is doing (the CLI shows it with rich)."""

    def stage(self, title: str) -> None: ...

    def tick(self, note: str) -> None: ...

    def finished(self, outcome: CheckOutcome) -> None: ...


class SilentProgress:
    """Progress for library use and tests: reports nothing."""

    def stage(self, title: str) -> None:
        pass

    def tick(self, note: str) -> None:
        pass

    def finished(self, outcome: CheckOutcome) -> None:
        pass


@dataclass(frozen=True)
class RunReport:
    """The outcome of every check that was selected, plus what the run was allowed to do."""

    base_url: str
    allow_writes: bool
    other_tenant: bool
    seed: int
    run_id: str
    outcomes: tuple[CheckOutcome, ...]
    requests: int
    schemathesis_phases: tuple[str, ...] = ()
    writes: tuple[Write, ...] = ()
    """Every write the API accepted from this run (see `writes.writes_made`)."""
    require_all_rules: bool = False
    """`--require-all-rules`: a rule not exercised fails the run like a failed check."""

    @property
    def passed(self) -> bool:
        return not any(self.fails(outcome) for outcome in self.outcomes)

    def fails(self, outcome: CheckOutcome) -> bool:
        """Whether `outcome` fails this run (every report says so the same way)."""
        return outcome.status is Status.FAILED or (
            self.require_all_rules and outcome.status is Status.NOT_EXERCISED
        )

    def count(self, status: Status) -> int:
        return sum(1 for outcome in self.outcomes if outcome.status is status)


def run_kit(
    settings: KitSettings,
    progress: Progress | None = None,
    *,
    contract: Path = OPENAPI_PATH,
    sleep: Callable[[float], None] = time.sleep,
    transport: httpx.BaseTransport | None = None,
) -> RunReport:
    """Run every selected check against `settings.base_url`; `KitError` if it cannot start.

    `transport` carries the kit's own requests (the network by default); schemathesis always
    sends its requests to `settings.base_url`. A test serves an ASGI app with it in-process.
    """
    progress = progress or SilentProgress()
    facts = load_facts(contract)
    outcomes: list[CheckOutcome] = []
    extra_exchanges: list[Exchange] = []
    phases: list[str] = []

    def record(outcome: CheckOutcome) -> None:
        outcomes.append(outcome)
        progress.finished(outcome)

    with ApiSession(settings, transport) as session:
        progress.stage("discovering the test data")
        data = discover(session, settings, facts)
        sweep(session, facts, data, settings.customer_phone)
        if settings.rate_limit_probe:
            progress.tick(f"probing the rate limit ({settings.rate_limit_probe} requests max)")
            provoke_rate_limit(session, facts, settings.rate_limit_probe)
        ctx = ScenarioContext(session=session, settings=settings, data=data, facts=facts)
        progress.stage("finding data for the business rules and probing")
        rules = start_rule_phase(ctx, sleep)
        for scenario in SCENARIOS:
            if settings.selected(scenario.name):
                progress.stage(scenario.name)
                record(_guarded(scenario.name, lambda s=scenario: [s.evaluate(ctx)])[0])
        if rules is not None:
            rules.after_scenarios()
        before_fuzz = len(session.exchanges)
        if settings.selected(SCHEMATHESIS):
            progress.stage("schemathesis (examples, coverage, fuzzing, stateful)")

            def fuzz() -> list[CheckOutcome]:
                phase = run_schemathesis(settings, data, facts, on_scenario=progress.tick)
                extra_exchanges.extend(phase.exchanges)
                phases.extend(phase.phases)
                return phase.outcomes

            for outcome in _guarded(SCHEMATHESIS, fuzz):
                record(outcome)
        if rules is not None:
            rules.after_fuzzing()
        # In the order they happened: the rule judges compare responses across time.
        exchanges = [
            *session.exchanges[:before_fuzz],
            *extra_exchanges,
            *session.exchanges[before_fuzz:],
        ]
    progress.stage("judging every response")
    for rule in VERIFY_RESPONSE_RULES:
        if settings.selected(rule.name):
            record(rule.evaluate(exchanges, facts))
    if settings.selected(COVERAGE.name):
        record(COVERAGE.evaluate(exchanges, facts, settings))
    for outcome in rules.verdicts(exchanges) if rules is not None else []:
        record(outcome)
    return RunReport(
        base_url=settings.base_url,
        allow_writes=settings.allow_writes,
        other_tenant=settings.other_tenant_key is not None,
        seed=settings.seed,
        run_id=settings.run_id,
        outcomes=tuple(_report_order(outcomes)),
        requests=len(exchanges),
        schemathesis_phases=tuple(phases),
        writes=writes_made(exchanges, facts),
        require_all_rules=settings.require_all_rules,
    )


def _guarded(name: str, run: Callable[[], list[CheckOutcome]]) -> list[CheckOutcome]:
    """Run a check; if the kit itself breaks on what the API sent, fail that check.

    Bias: an answer odd enough to crash the kit is not a conformant one, and the run must
    still finish with a report rather than a traceback.
    """
    try:
        return run()
    except KitError:
        raise
    except Exception as exc:  # noqa: BLE001 - reported as the check's failure, with its type
        message = f"the check could not complete: {type(exc).__name__}: {exc}"
        return [
            CheckOutcome(
                name=name, status=Status.FAILED, summary=message, violations=(Violation(message),)
            )
        ]


def _report_order(outcomes: Iterable[CheckOutcome]) -> list[CheckOutcome]:
    """Project checks in registry order first, then schemathesis's rows by name."""
    order = [rule.name for rule in VERIFY_RESPONSE_RULES] + [s.name for s in SCENARIOS]
    order += [COVERAGE.name]
    order += RULE_IDS
    rank = {name: index for index, name in enumerate(order)}
    return sorted(outcomes, key=lambda o: (rank.get(o.name, len(order)), o.name))
