"""A scenario's `report_outcomes`: the verdict QA wants for a payment report's reference.

```yaml
name: report-outcomes
report_outcomes:
  - {tenant: fibranet, reference: "0045127", outcome: verified}
  - {tenant: fibranet, reference: "0045128", outcome: rejected, reason: amount_mismatch}
```

A forced outcome says what the bank statement would have said; it is applied by the
verification itself (`report_verification.verify_due`) when the test clock passes a
pending report's verification delay, so a forced `verified` is booked exactly as a report
on the statement is. Validation is as strict as a fault rule's (bias: a forced outcome
that would never apply, or that says something the contract cannot, fails the whole
scenario): the tenant must exist, the reference must be a reference the contract accepts
(a string: YAML reads an unquoted `0045127` as the octal number 19031), a rejection names a
reason of the contract and a verification none, and a reference is forced once per tenant.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from billing_toolkit.simulator.faults.bounded_yaml import quoted
from billing_toolkit.simulator.faults.rules import TENANTS
from billing_toolkit.simulator.state.report_verification import REJECTION_REASONS, VERIFIED

FIELDS = ("tenant", "reference", "outcome", "reason")
OUTCOMES = (VERIFIED, "rejected")
MAX_OUTCOMES = 200
"""Forced outcomes of one scenario, as many as its rules may be."""
MAX_FORCED_OUTCOMES = 500
"""Forced outcomes of every loaded scenario together, as many as the rules in force."""
_REFERENCE = re.compile(r"[0-9A-Za-z]{4,32}")
"""The contract's `PaymentReference` (`^[0-9A-Za-z]{4,32}$`)."""


@dataclass(frozen=True, slots=True)
class ForcedOutcome:
    """One reference of one tenant and the verdict its pending reports get."""

    tenant: str
    reference: str
    verdict: str
    """`verified`, or the `RejectionReason` the report is rejected with."""

    @property
    def key(self) -> tuple[str, str]:
        return self.tenant, self.reference

    def to_dict(self) -> dict[str, str]:
        rejected = self.verdict != VERIFIED
        return {
            "tenant": self.tenant,
            "reference": self.reference,
            "outcome": "rejected" if rejected else VERIFIED,
            **({"reason": self.verdict} if rejected else {}),
        }


def _one(raw: Any, where: str) -> tuple[ForcedOutcome | None, list[str]]:
    if not isinstance(raw, Mapping):
        return None, [f"{where}: must be a mapping with {', '.join(FIELDS[:3])}"]
    problems = [
        f"{where}.{name}: unknown field (expected {', '.join(FIELDS)})"
        for name in sorted(map(str, set(raw) - set(FIELDS)))
    ]
    tenant, reference, outcome, reason = (raw.get(name) for name in FIELDS)
    if tenant not in TENANTS:
        problems.append(
            f"{where}.tenant: no tenant {quoted(tenant)} (tenants: {', '.join(sorted(TENANTS))})"
        )
    if not isinstance(reference, str):
        problems.append(
            f"{where}.reference: must be a string (quote it in YAML), got {quoted(reference)}"
        )
    elif not _REFERENCE.fullmatch(reference):
        problems.append(
            f"{where}.reference: {quoted(reference)} is not a payment reference"
            " (4-32 digits and letters)"
        )
    if outcome not in OUTCOMES:
        problems.append(f"{where}.outcome: must be verified or rejected, got {quoted(outcome)}")
    if outcome == "rejected" and reason not in REJECTION_REASONS:
        problems.append(
            f"{where}.reason: a rejection needs a reason of the contract"
            f" ({', '.join(REJECTION_REASONS)}), got {quoted(reason)}"
        )
    if outcome == VERIFIED and reason is not None:
        problems.append(f"{where}.reason: a verified report has no rejection reason")
    if problems:
        return None, problems
    return ForcedOutcome(str(tenant), str(reference), str(reason or VERIFIED)), []


def parse_report_outcomes(raw: Any, where: str = "report_outcomes") -> tuple[
    tuple[ForcedOutcome, ...], list[str]
]:  # fmt: skip
    """Every forced outcome of a scenario's `report_outcomes`, or every problem, each
    naming its field (`report_outcomes[1].reason: ...`)."""
    if not isinstance(raw, list) or not raw:
        return (), [f"{where}: must be a non-empty list of forced outcomes"]
    if len(raw) > MAX_OUTCOMES:
        return (), [f"{where}: {len(raw)} outcomes; a scenario forces at most {MAX_OUTCOMES}"]
    parsed: list[ForcedOutcome] = []
    problems: list[str] = []
    seen: set[tuple[str, str]] = set()
    for index, item in enumerate(raw):
        outcome, found = _one(item, f"{where}[{index}]")
        problems.extend(found)
        if outcome is None:
            continue
        if outcome.key in seen:
            problems.append(
                f"{where}[{index}].reference: {quoted(outcome.reference)} of"
                f" {outcome.tenant} is forced twice"
            )
        seen.add(outcome.key)
        parsed.append(outcome)
    return (tuple(parsed), []) if not problems else ((), problems)
