"""Routes from the contract: each operationId maps to exactly one handler.

An operation without a handler, or a handler without an operation, is a start-up error
(`ContractMismatch`) — the simulator never serves a contract it only partly implements.
"Which operation is this request?" is the kernel's `OperationMatcher` (the rule Starlette's
router applies, shared with the conformance kit); `ContractDispatch` uses it to send a
request that names an operation straight to its endpoint. Several layers ask it of every
request (metrics for its label, fault injection for a rule's target, dispatch, the
journal); `operation_match` answers them all from one match.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from billing_toolkit.contract.matching import Match, OperationMatcher
from billing_toolkit.contract.operations import Contract, Operation

_MATCHED = "billing_toolkit.matched"
"""The scope key (an ASGI extension key, namespaced) holding the request's first match."""


def operation_match(scope: Scope, matcher: OperationMatcher) -> Match | None:
    """`matcher`'s answer for this request, matched once per request and kept in the scope.

    The kept match names the matcher, method and path it was made for: an application
    wrapping the simulator may call it again with a copy of the scope for another path (a
    copy carries the kept match along), and gets that path's match, never a stale one.
    Only the first matcher asked for a path is kept (the billing contract's: every layer
    asks it first); another is matched afresh."""
    method, path = scope["method"], scope["path"]
    kept: tuple[OperationMatcher, str, str, Match | None] | None = scope.get(_MATCHED)
    if kept is not None and kept[1] == path and kept[2] == method:
        if kept[0] is matcher:
            return kept[3]
        return matcher.match(method, path)
    found = matcher.match(method, path)
    scope[_MATCHED] = (matcher, path, method, found)
    return found


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
        Route(op.path.template, endpoint_for(op, handlers[key]), methods=[op.method], name=key)
        for key, op in contract.operations.items()
    ]


class ContractDispatch:
    """Sends a request that names a contract operation straight to that operation's endpoint.

    Starlette's router would find the same endpoint after trying each route in turn and
    wrapping the call in its exception layer; with 26 routes that walk was a visible share
    of every request. Anything the table does not match — unknown paths, a method the path
    does not serve, a trailing slash, a mounted app — goes on to Starlette's router, which
    answers it exactly as before (404, 405 with `Allow`, redirect).
    """

    def __init__(
        self, app: ASGIApp, tables: tuple[tuple[OperationMatcher, Mapping[str, ASGIApp]], ...]
    ) -> None:
        """`tables`: per contract, its matcher and its endpoints by operationId, in the
        order Starlette's route list has them."""
        self.app, self.tables = app, tables

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope.get("root_path"):
            for matcher, endpoints in self.tables:
                found = operation_match(scope, matcher)
                if found is not None:
                    operation, scope["path_params"] = found
                    await endpoints[operation.operation_id](scope, receive, send)
                    return
        await self.app(scope, receive, send)
