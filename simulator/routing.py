"""Routes from the contract: each operationId maps to exactly one handler.

An operation without a handler, or a handler without an operation, is a start-up error
(`ContractMismatch`) — the simulator never serves a contract it only partly implements.
`OperationRouter` answers "which operation is this request?" for the layers in front of
Starlette's router (faults, logs), from the same contract paths.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from starlette.routing import Route

from simulator.validation.contract import Contract, Operation

_TEMPLATE = re.compile(r"\{([^}/]+)\}")


class ContractMismatch(RuntimeError):
    """Handlers and contract operations do not match one to one."""


def check_handlers(contract: Contract, handlers: Mapping[str, Any]) -> None:
    missing = sorted(set(contract.operations) - set(handlers))
    extra = sorted(set(handlers) - set(contract.operations))
    problems = []
    if missing:
        problems.append(f"operations without a handler: {', '.join(missing)}")
    if extra:
        problems.append(f"handlers without an operation: {', '.join(extra)}")
    if problems:
        raise ContractMismatch(f"{contract.path.name}: " + "; ".join(problems))


def contract_routes(
    contract: Contract,
    handlers: Mapping[str, Any],
    endpoint_for: Callable[[Operation, Any], Callable[..., Any]],
) -> list[Route]:
    check_handlers(contract, handlers)
    return [
        Route(op.path, endpoint_for(op, handlers[key]), methods=[op.method], name=key)
        for key, op in contract.operations.items()
    ]


class OperationRouter:
    def __init__(self, operations: Mapping[str, Operation]) -> None:
        self._table: list[tuple[str, re.Pattern[str], Operation]] = []
        for operation in operations.values():
            parts = _TEMPLATE.split(operation.path)  # literal, name, literal, name...
            pattern = "".join(
                re.escape(part) if index % 2 == 0 else f"(?P<{part}>[^/]+)"
                for index, part in enumerate(parts)
            )
            self._table.append((operation.method, re.compile(f"^{pattern}$"), operation))

    def methods(self, path: str) -> list[str]:
        """Every method the contract serves on `path` (HEAD comes with GET), for `Allow`."""
        found = {op_method for op_method, pattern, _ in self._table if pattern.match(path)}
        if "GET" in found:
            found.add("HEAD")
        return sorted(found)

    def match(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        method = "GET" if method == "HEAD" else method
        for op_method, pattern, operation in self._table:
            if op_method == method and (found := pattern.match(path)):
                return operation, found.groupdict()
        return None
