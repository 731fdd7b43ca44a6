"""Which operation of the old contract is which of the new.

An operation is first its operationId (the kernel's identity, what generated clients name
their methods after); an operation whose id is gone is looked for by method and path shape
(`/v1/customers/{}` whatever its parameter is called), so a renamed operationId or a moved
path is reported as that, not as one operation removed and another added.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from billing_toolkit.contract.operations import Contract, Operation

_PARAMETER = re.compile(r"\{[^}/]+\}")


def route(operation: Operation) -> tuple[str, str]:
    """Method and path shape: `("GET", "/v1/customers/{}")`."""
    return operation.method, _PARAMETER.sub("{}", operation.path.template)


def describe(operation: Operation) -> str:
    return f"{operation.method} {operation.path.template}"


@dataclass(frozen=True, slots=True)
class Pairing:
    """The operations matched between two contracts, and those present in one only."""

    matched: tuple[tuple[Operation, Operation], ...]
    removed: tuple[Operation, ...]
    added: tuple[Operation, ...]


def pair_operations(old: Contract, new: Contract) -> Pairing:
    matched = [
        (op, new.operations[oid]) for oid, op in old.operations.items() if oid in new.operations
    ]
    unmatched_old = [op for oid, op in old.operations.items() if oid not in new.operations]
    unmatched_new = {
        route(op): op for oid, op in new.operations.items() if oid not in old.operations
    }
    removed = []
    for operation in unmatched_old:
        twin = unmatched_new.pop(route(operation), None)
        if twin is None:
            removed.append(operation)
        else:
            matched.append((operation, twin))
    return Pairing(tuple(matched), tuple(removed), tuple(unmatched_new.values()))
