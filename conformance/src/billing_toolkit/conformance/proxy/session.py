"""A proxy session: every exchange judged in turn, its violations logged live and kept for
the report written on exit (the same JSON, Markdown and JUnit files `verify` writes, one
case per rule id).

Bias: a rule no exchange exercised is reported as skipped, never as passed; the report keeps
at most `MAX_VIOLATIONS` violations per rule (the count of all of them is in the summary).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from billing_toolkit.conformance.checks.base import MAX_VIOLATIONS
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.outcome import CheckOutcome, Violation, judge, skipped
from billing_toolkit.conformance.proxy.judging import ExchangeJudge
from billing_toolkit.conformance.proxy.verdict import Verdict
from billing_toolkit.conformance.runner import RunReport

Log = Callable[[str], None]

REMEDY = (
    "Reproduce the exchange from the recording (`--record`) or the log line, fix the "
    "implementation, and replay the recording with `billing-contract proxy-replay`."
)


@dataclass
class Session:
    """The running tally of one proxy run (or one replay)."""

    judge: ExchangeJudge
    log: Log = field(default=lambda line: None)
    exchanges: int = 0
    verdicts: list[Verdict] = field(default_factory=list)
    exercised: Counter[str] = field(default_factory=Counter)
    violated: Counter[str] = field(default_factory=Counter)
    unjudged: int = 0
    """Exchanges a judge failed on: forwarded all the same, and counted, never a 5xx."""

    def observe(self, exchange: Exchange) -> list[Verdict]:
        """Judge the next exchange, log each violation on one line, keep them for the report.

        A judge that fails on some odd body must not turn the client's answer into an error:
        the proxy is a witness, not a gate. The failure is logged (its type only: the body
        may hold personal data) and counted, and the exchange goes through unjudged."""
        index = self.exchanges
        self.exchanges += 1
        try:
            judgement = self.judge.judge(index, exchange)
        except Exception as exc:  # noqa: BLE001 - any judge bug; the traffic must flow
            self.unjudged += 1
            self.log(
                f"UNJUDGED #{index} the proxy could not judge this exchange ({type(exc).__name__})"
            )
            return []
        self.exercised.update(judgement.exercised)
        for verdict in judgement.verdicts:
            self.violated[verdict.rule_id] += 1
            if self.violated[verdict.rule_id] <= MAX_VIOLATIONS:
                self.verdicts.append(verdict)
            self.log(verdict.log_line())
        return judgement.verdicts

    def outcomes(self) -> tuple[CheckOutcome, ...]:
        return tuple(self._outcome(rule_id) for rule_id in self.judge.rule_ids)

    def _outcome(self, rule_id: str) -> CheckOutcome:
        inspected = self.exercised[rule_id]
        if inspected == 0:
            return skipped(rule_id, "no exchange of the session exercised it")
        kept = [Violation(v.message) for v in self.verdicts if v.rule_id == rule_id]
        return judge(
            rule_id,
            kept,
            inspected=inspected,
            passed_summary=f"{inspected} exchanges conform",
            remedy=REMEDY if kept else "",
        )

    def report(self, upstream: str) -> RunReport:
        """The session as the kit's run report (no writes of its own, no seed)."""
        return RunReport(
            base_url=upstream,
            allow_writes=False,
            other_tenant=False,
            seed=0,
            run_id="",
            outcomes=self.outcomes(),
            requests=self.exchanges,
        )
