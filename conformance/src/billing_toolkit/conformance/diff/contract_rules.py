"""The rules that compare two whole contracts: operations gone, moved, renamed or added.

A generated client calls an operation by its method and path and names it by its
operationId, so removing an operation, moving it to another path or method, and renaming its
operationId are all `error`s; a new operation is `info`.
"""

from __future__ import annotations

from collections.abc import Iterator

from billing_toolkit.conformance.diff.changes import Hit, Rule, Severity
from billing_toolkit.conformance.diff.pairing import describe, pair_operations, route
from billing_toolkit.contract.operations import Contract


def operation_removed(old: Contract, new: Contract) -> Iterator[Hit]:
    for operation in pair_operations(old, new).removed:
        yield Hit(describe(operation), f"operation `{operation.operation_id}` removed")


def operation_moved(old: Contract, new: Contract) -> Iterator[Hit]:
    for before, after in pair_operations(old, new).matched:
        if route(before) != route(after):
            yield Hit(
                describe(after),
                f"`{after.operation_id}` moved: {describe(before)} → {describe(after)}",
            )


def operation_id_changed(old: Contract, new: Contract) -> Iterator[Hit]:
    for before, after in pair_operations(old, new).matched:
        if before.operation_id != after.operation_id:
            yield Hit(
                describe(after),
                f"operationId `{before.operation_id}` renamed to `{after.operation_id}`",
            )


def operation_added(old: Contract, new: Contract) -> Iterator[Hit]:
    for operation in pair_operations(old, new).added:
        yield Hit(describe(operation), f"operation `{operation.operation_id}` added")


CONTRACT_RULES: tuple[Rule[Contract], ...] = (
    Rule("operation-removed", "removed", Severity.ERROR,
         "An operation was removed.", operation_removed),
    Rule("operation-path-changed", "renamed", Severity.ERROR,
         "An operation moved to another method or path (renamed path).", operation_moved),
    Rule("operation-id-changed", "renamed", Severity.ERROR,
         "An operation's operationId was renamed (generated clients rename the method).",
         operation_id_changed),
    Rule("operation-added", "added", Severity.INFO,
         "A new operation.", operation_added),
)  # fmt: skip
