"""One diff: every rule of the table run over two contracts, then the version policy.

Contract rules see both contracts; operation rules see each matched pair of operations;
schema rules see each pair of schema nodes those operations share, in the node's direction.
The result is sorted (worst first, then operation, location, rule), so the same two files
always give the same report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from billing_toolkit.conformance.diff.business_rules import BUSINESS_RULES
from billing_toolkit.conformance.diff.changes import (
    Change,
    RuleInfo,
    Severity,
    change,
    schema_change,
)
from billing_toolkit.conformance.diff.contract_rules import CONTRACT_RULES
from billing_toolkit.conformance.diff.operation_rules import OPERATION_RULES
from billing_toolkit.conformance.diff.pairing import pair_operations
from billing_toolkit.conformance.diff.schema_rules import REQUEST_RULES, RESPONSE_RULES
from billing_toolkit.conformance.diff.sites import schema_sites
from billing_toolkit.conformance.diff.versioning import VERSION_RULES, apply_version_policy
from billing_toolkit.conformance.diff.walk import node_pairs
from billing_toolkit.contract.operations import Contract, Operation

RULES_BY_DIRECTION = {"request": REQUEST_RULES, "response": RESPONSE_RULES}
CATALOGUE: tuple[RuleInfo, ...] = (
    *CONTRACT_RULES,
    *OPERATION_RULES,
    *REQUEST_RULES,
    *RESPONSE_RULES,
    *BUSINESS_RULES,
    *VERSION_RULES,
)
"""Every rule the diff applies, in the order the README lists them."""


@dataclass(frozen=True, slots=True)
class DiffReport:
    """The changes between two contracts, and which versions they were."""

    old_path: str
    new_path: str
    old_version: str
    new_version: str
    changes: tuple[Change, ...]

    def count(self, severity: Severity) -> int:
        return sum(1 for item in self.changes if item.severity is severity)

    def fails(self, threshold: Severity) -> bool:
        """True when a change is at least as bad as `threshold` (what `--fail-on` decides)."""
        return any(item.severity.at_least(threshold) for item in self.changes)


def _operation_changes(old: Operation, new: Operation) -> list[Change]:
    found = [
        change(rule, hit, new.operation_id)
        for rule in OPERATION_RULES
        for hit in rule.check(old, new)
    ]
    for site, direction, before, after in schema_sites(old, new):
        for path, old_node, new_node in node_pairs(before, after):
            for rule in RULES_BY_DIRECTION[direction]:
                found.extend(
                    schema_change(rule, hit, new.operation_id, site, path)
                    for hit in rule.check(old_node, new_node)
                )
    return found


def _version(contract: Contract) -> Any:
    info = contract.document.get("info")
    return info.get("version") if isinstance(info, dict) else None


def diff_contracts(old: Contract, new: Contract) -> DiffReport:
    """Every change from `old` to `new`, classified, with the version policy applied."""
    found = [
        change(rule, hit, None)
        for rule in (*CONTRACT_RULES, *BUSINESS_RULES)
        for hit in rule.check(old, new)
    ]
    for before, after in pair_operations(old, new).matched:
        found.extend(_operation_changes(before, after))
    versioned = apply_version_policy(_version(old), _version(new), found)
    return DiffReport(
        old_path=str(old.path),
        new_path=str(new.path),
        old_version=str(_version(old)),
        new_version=str(_version(new)),
        changes=tuple(sorted(versioned, key=lambda item: item.sort_key)),
    )
