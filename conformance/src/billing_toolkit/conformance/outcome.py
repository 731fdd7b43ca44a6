"""The verdict of one check: passed, failed (with the first failing exchange) or skipped."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from billing_toolkit.conformance.exchange import Exchange


class Status(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"
    NOT_EXERCISED = "not exercised"
    """A business rule the run's data never gave a case to judge (no account had a credit,
    ...): not a pass, and a failure with `--require-all-rules`."""


@dataclass(frozen=True)
class Violation:
    """One broken rule, with the exchange that shows it (None when no single request does)."""

    message: str
    exchange: Exchange | None = None


@dataclass(frozen=True)
class CheckOutcome:
    """What the report prints for one check.

    `inspected` counts what the check looked at (responses, scenarios): a pass over zero
    inspected responses would be a pass that proves nothing, so checks that saw nothing say
    so by being skipped instead.
    """

    name: str
    status: Status
    summary: str
    inspected: int = 0
    violations: tuple[Violation, ...] = field(default_factory=tuple)
    remedy: str = ""

    @property
    def first_violation(self) -> Violation | None:
        return self.violations[0] if self.violations else None


def judge(
    name: str,
    violations: list[Violation],
    *,
    inspected: int,
    passed_summary: str,
    remedy: str,
) -> CheckOutcome:
    """Turn a check's findings into its outcome: any violation fails it."""
    if violations:
        extra = f" (+{len(violations) - 1} more)" if len(violations) > 1 else ""
        return CheckOutcome(
            name=name,
            status=Status.FAILED,
            summary=violations[0].message + extra,
            inspected=inspected,
            violations=tuple(violations),
            remedy=remedy,
        )
    return CheckOutcome(
        name=name, status=Status.PASSED, summary=passed_summary, inspected=inspected
    )


def skipped(name: str, reason: str) -> CheckOutcome:
    return CheckOutcome(name=name, status=Status.SKIPPED, summary=reason)


def not_exercised(name: str, reason: str, inspected: int = 0) -> CheckOutcome:
    return CheckOutcome(
        name=name,
        status=Status.NOT_EXERCISED,
        summary=f"not exercised: {reason}",
        inspected=inspected,
    )
