"""Routes from the contract: each operationId maps to exactly one handler.

An operation without a handler, or a handler without an operation, is a start-up error
(`ContractMismatch`) — the simulator never serves a contract it only partly implements.
`OperationRouter` answers "which operation is this request?" from the contract paths, for
the layers in front of Starlette's router (faults, logs) and for `ContractDispatch`, which
sends a request that names an operation straight to its endpoint.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from simulator.validation.contract import Contract, Operation

_TEMPLATE = re.compile(r"\{([^}/]+)\}")

Match = tuple[Operation, dict[str, str]]


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
    endpoint_for: Callable[[Operation, Any], ASGIApp],
) -> list[Route]:
    """One Starlette route per operation; its endpoint is an ASGI app (path params in scope)."""
    check_handlers(contract, handlers)
    return [
        Route(op.path, endpoint_for(op, handlers[key]), methods=[op.method], name=key)
        for key, op in contract.operations.items()
    ]


class OperationRouter:
    """Contract paths in contract order, the first match winning — as in Starlette's router.

    Per method, a path without parameters is one dict look-up; templated paths are tried in
    order after it, unless a literal path listed earlier in the contract would win anyway.
    """

    def __init__(self, operations: Mapping[str, Operation]) -> None:
        self._table: list[tuple[str, re.Pattern[str], Operation]] = []
        self._literal: dict[tuple[str, str], tuple[int, Operation]] = {}
        self._templated: dict[str, list[tuple[int, re.Pattern[str], Operation]]] = {}
        for index, operation in enumerate(operations.values()):
            parts = _TEMPLATE.split(operation.path)  # literal, name, literal, name...
            pattern = re.compile(
                "^"
                + "".join(
                    re.escape(part) if i % 2 == 0 else f"(?P<{part}>[^/]+)"
                    for i, part in enumerate(parts)
                )
                + "$"
            )
            self._table.append((operation.method, pattern, operation))
            if len(parts) == 1:
                self._literal.setdefault((operation.method, operation.path), (index, operation))
            else:
                self._templated.setdefault(operation.method, []).append((index, pattern, operation))

    def methods(self, path: str) -> list[str]:
        """Every method the contract serves on `path` (HEAD comes with GET), for `Allow`."""
        found = {op_method for op_method, pattern, _ in self._table if pattern.match(path)}
        if "GET" in found:
            found.add("HEAD")
        return sorted(found)

    def match(self, method: str, path: str) -> Match | None:
        method = "GET" if method == "HEAD" else method
        literal = self._literal.get((method, path))
        for index, pattern, operation in self._templated.get(method, ()):
            if literal is not None and literal[0] < index:
                break
            if found := pattern.match(path):
                return operation, found.groupdict()
        return (literal[1], {}) if literal is not None else None


class ContractDispatch:
    """Sends a request that names a contract operation straight to that operation's endpoint.

    Starlette's router would find the same endpoint after trying each route in turn and
    wrapping the call in its exception layer; with 26 routes that walk was a visible share
    of every request. Anything the table does not match — unknown paths, a method the path
    does not serve, a trailing slash, a mounted app — goes on to Starlette's router, which
    answers it exactly as before (404, 405 with `Allow`, redirect).
    """

    def __init__(
        self, app: ASGIApp, tables: tuple[tuple[OperationRouter, Mapping[str, ASGIApp]], ...]
    ) -> None:
        """`tables`: per contract, its router and its endpoints by operationId, in the
        order Starlette's route list has them."""
        self.app, self.tables = app, tables

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope.get("root_path"):
            for router, endpoints in self.tables:
                found = router.match(scope["method"], scope["path"])
                if found is not None:
                    operation, scope["path_params"] = found
                    await endpoints[operation.operation_id](scope, receive, send)
                    return
        await self.app(scope, receive, send)
