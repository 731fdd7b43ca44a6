"""A probe sends what fuzzing never sends, and reports its findings under rule ids.

Probes run after discovery and before schemathesis; every request they send is recorded by
the session, so the per-response judges (`conformance/rules/`) judge it too. A probe's own
findings are those a single response cannot show (two payments booked by one key, a cursor
served to the wrong list); a probe that only provokes responses returns none and lets the
judges speak. `unable` findings say why a rule could not be probed (no other tenant key,
writes not allowed), which the report prints as the rule's skip reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from billing_toolkit.conformance.checks.base import Findings, ScenarioContext

ProbeFindings = dict[str, Findings]
"""Rule id → what the probe saw for it."""


@dataclass(frozen=True)
class ProbeContext:
    """What a probe needs: the scenario context, the accounts discovery added, and time."""

    scenario: ScenarioContext
    related_accounts: tuple[str, ...] = ()
    retry_delay: float = 3.0
    sleep: Callable[[float], None] = field(default=time.sleep)


@dataclass(frozen=True)
class Probe:
    name: str
    rules: tuple[str, ...]
    run: Callable[[ProbeContext], ProbeFindings]
    writes: bool = False
    needs_other_tenant: bool = False

    def skip_reason(self, ctx: ProbeContext) -> str | None:
        if self.writes and not ctx.scenario.settings.allow_writes:
            return f"probe {self.name} writes payments: run with --allow-writes"
        if self.needs_other_tenant and not ctx.scenario.settings.other_tenant_key:
            return f"probe {self.name} needs --other-tenant-key (another tenant's API key)"
        return None

    def evaluate(self, ctx: ProbeContext) -> ProbeFindings:
        reason = self.skip_reason(ctx)
        if reason is not None:
            return {rule: Findings(unable=reason) for rule in self.rules}
        return self.run(ctx)


def finding(found: ProbeFindings, rule_id: str) -> Findings:
    """The findings of `rule_id`, created on first use."""
    return found.setdefault(rule_id, Findings())
