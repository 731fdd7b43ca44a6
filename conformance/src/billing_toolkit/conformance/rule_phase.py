"""The business-rule part of a run: data for the rules, probes, re-reads, then the verdicts.

The runner calls it at four points: after the sweep (find more accounts of the tenant, run
the read-only probes), after the scenarios (the writing probe, then re-read every account
so the balance rules see the state after the writes), after schemathesis (re-read the test
account once more: fuzzing may have posted payments) and at the end (judge every exchange).
Nothing here runs when no rule id is selected.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from billing_toolkit.conformance.checks.base import Findings, ScenarioContext
from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.outcome import CheckOutcome
from billing_toolkit.conformance.probes import PROBES, Probe, ProbeContext
from billing_toolkit.conformance.probes.related import discover_related, read_account
from billing_toolkit.conformance.rules import RULES, judge_rules

RULE_IDS: tuple[str, ...] = tuple(RULES)


@dataclass
class RulePhase:
    """What the rule part of one run gathered so far."""

    probe_context: ProbeContext
    selected: tuple[str, ...]
    probed: dict[str, list[Findings]] = field(default_factory=lambda: defaultdict(list))

    @property
    def accounts(self) -> tuple[str, ...]:
        scenario = self.probe_context.scenario
        return (scenario.data.account_number, *self.probe_context.related_accounts)

    def _run(self, probes: Iterable[Probe]) -> None:
        for probe in probes:
            if set(probe.rules) & set(self.selected):
                for rule_id, findings in _guarded(probe, self.probe_context).items():
                    self.probed[rule_id].append(findings)

    def read_only_probes(self) -> None:
        self._run(probe for probe in PROBES if not probe.writes)

    def after_scenarios(self) -> None:
        """The writing probes, then every account read again (the state after the writes)."""
        self._run(probe for probe in PROBES if probe.writes)
        for account in self.accounts:
            read_account(self.probe_context.scenario, account)

    def after_fuzzing(self) -> None:
        read_account(self.probe_context.scenario, self.accounts[0])

    def verdicts(self, exchanges: Iterable[Exchange]) -> list[CheckOutcome]:
        scenario = self.probe_context.scenario
        return judge_rules(
            exchanges,
            scenario.facts,
            self.probed,
            other_tenant_key=scenario.settings.other_tenant_key,
            selected=self.selected,
            accounts_read=len(self.accounts),
        )


def start_rule_phase(
    ctx: ScenarioContext, sleep: Callable[[float], None] = time.sleep
) -> RulePhase | None:
    """Find more accounts and run the read-only probes; None when no rule is selected."""
    selected = tuple(rule_id for rule_id in RULE_IDS if ctx.settings.selected(rule_id))
    if not selected:
        return None
    related = discover_related(ctx)
    phase = RulePhase(
        ProbeContext(ctx, related, retry_delay=ctx.settings.retry_delay, sleep=sleep),
        selected,
    )
    phase.read_only_probes()
    return phase


def _guarded(probe: Probe, ctx: ProbeContext) -> dict[str, Findings]:
    """The probe's findings; if the kit breaks on what the API sent, each of its rules fails.

    Bias, as for the scenarios: an answer odd enough to crash the kit is not a conformant
    one, and the run must still end with a report.
    """
    try:
        return probe.evaluate(ctx)
    except KitError:
        raise
    except Exception as exc:  # noqa: BLE001 - reported as the rules' failure, with its type
        broken = Findings(inspected=1)
        broken.add(f"probe {probe.name} could not complete: {type(exc).__name__}: {exc}")
        return dict.fromkeys(probe.rules, broken)
