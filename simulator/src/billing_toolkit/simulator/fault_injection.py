"""The ASGI layer that applies fault rules to billing requests (never to `/_sim`).

It knows the operation from the contract's paths, the tenant from the API key and the
customer from the account number in the path or query — all before billing runs — so a
rule can target "getBalance of tenant fibranet for account 1000004821". Problem answers
it makes are checked against the contract like any other; the deliberately broken ones
(empty, malformed, truncated) are, of course, not.

It lives beside the other ASGI layers, not in `faults/`: it needs the endpoint's rendering
and the runtime, while the rule vocabulary in `faults/` (kinds, rules, registry, scenario,
clock, events) is shared with the admin API, the CLI and the pytest plugin and must import
no HTTP layer. It reaches down into that vocabulary and `faults.socket`, never the reverse.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from billing_toolkit.contract.operations import Operation
from billing_toolkit.simulator.config import ADMIN_PREFIX
from billing_toolkit.simulator.endpoint import bearer_token, checked, render, send_rendered
from billing_toolkit.simulator.faults import socket as sockets
from billing_toolkit.simulator.faults.kinds import KINDS
from billing_toolkit.simulator.faults.registry import FaultRegistry
from billing_toolkit.simulator.faults.rules import (
    FaultRule,
    FaultRuleError,
    RequestFacts,
    parse_header,
)
from billing_toolkit.simulator.problems import (
    customer_not_found,
    infrastructure,
    invalid,
    invoice_not_found,
)
from billing_toolkit.simulator.routing import operation_match
from billing_toolkit.simulator.runtime import Runtime
from billing_toolkit.simulator.validation import FieldError, IncomingRequest

FAULT_HEADER = b"x-sim-fault"


async def _capture(app: ASGIApp, scope: Scope, receive: Receive) -> tuple[Message, bytes]:
    """Run the real request and keep its response instead of sending it."""
    start: dict[str, Any] = {}
    chunks: list[bytes] = []

    async def keep(message: Message) -> None:
        if message["type"] == "http.response.start":
            start.update(message)
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, keep)
    return start, b"".join(chunks)


def _names_fault(headers: list[tuple[bytes, bytes]]) -> bool:
    for key, _ in headers:  # a plain loop: this runs on every request with no rule active
        if key == FAULT_HEADER:
            return True
    return False


def _observing(send: Send, registry: FaultRegistry, operation_id: str) -> Send:
    """`send`, telling the state machines the request's final status as it starts out."""

    async def observed(message: Message) -> None:
        if message["type"] == "http.response.start":
            registry.observe(operation_id, message["status"])
        await send(message)

    return observed


def _with_length(start: Message, length: int) -> Message:
    headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
    return {**start, "headers": [*headers, (b"content-length", str(length).encode())]}


class FaultMiddleware:
    def __init__(self, app: ASGIApp, runtime: Runtime) -> None:
        self.app, self.runtime = app, runtime

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith(ADMIN_PREFIX):
            await self.app(scope, receive, send)
            return
        found = (
            operation_match(scope, self.runtime.matcher)
            if self.runtime.faults.active or _names_fault(scope["headers"])
            else None
        )
        if found is None:
            await self.app(scope, receive, send)
            return
        operation, path_params = found
        if self.runtime.faults.watching:
            send = _observing(send, self.runtime.faults, operation.operation_id)
        headers = Headers(scope=scope)
        state = scope.setdefault("state", {})
        token = bearer_token(headers)
        tenant = self.runtime.store.tenant_for_key(token) if token else None
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        facts = RequestFacts(
            operation_id=operation.operation_id,
            method=scope["method"],
            path=scope["path"],
            tenant=tenant.tenant_id if tenant else None,
            customer=path_params.get("accountNumber") or query.get("account_number"),
        )
        try:
            header_rule = self._header_rule(headers, operation, state)
        except FaultRuleError as error:
            # a fault QA asked for and would not get: said, never a silent 200
            errors = [FieldError("header.X-Sim-Fault", problem) for problem in error.problems]
            await send_rendered(send, render(invalid(errors), state["request_id"], scope["path"]))
            return
        decision = self.runtime.faults.decide(facts, state["request_id"], header_rule)
        state["faults"] = decision.fired
        if decision.delay_s > 0:
            await self.runtime.holds.wait(decision.delay_s)
        if decision.terminal is None:
            await self.app(scope, receive, send)
            return
        incoming = IncomingRequest(
            scope["method"], scope["path"], path_params, list(query.items()), headers, "", b""
        )
        await self._perform(decision.terminal, operation, incoming, scope, receive, send)

    def _header_rule(
        self, headers: Headers, operation: Operation, state: dict[str, Any]
    ) -> FaultRule | None:
        value = headers.get("x-sim-fault")
        if value is None:
            return None
        if not self.runtime.config.allow_fault_header:
            self.runtime.log.warning(
                "ignored X-Sim-Fault: fault headers are not allowed (serve with --allow-fault-header)",
                extra={"request_id": state["request_id"]},
            )
            return None
        return parse_header(value, self.runtime.control.faults.operations, operation.operation_id)

    async def _perform(
        self,
        rule: FaultRule,
        operation: Operation,
        incoming: IncomingRequest,
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        kind = KINDS[rule.kind]
        request_id = scope["state"]["request_id"]
        transport = sockets.transport_of(receive)

        async def answer(reply: Any) -> None:
            await send_rendered(
                send,
                checked(
                    self.runtime,
                    self.runtime.validator,
                    operation.operation_id,
                    incoming,
                    reply,
                    request_id,
                ),
            )

        if kind.status is not None:
            retry_after = rule.params.get("retry_after_s")
            await answer(
                infrastructure(kind.status, None if retry_after is None else int(retry_after))
            )
        elif rule.kind == "not_found":
            await answer(
                invoice_not_found()
                if "invoiceNumber" in incoming.path_params
                else customer_not_found()
            )
        elif rule.kind in ("timeout", "connection_reset", "connection_drop") and transport is None:
            raise sockets.emulated(rule.kind)
        elif rule.kind == "timeout":
            await self.runtime.holds.wait(rule.params["hold_s"])
            await answer(infrastructure(504))
        elif rule.kind == "connection_reset":
            await sockets.reset(transport)
        elif rule.kind == "connection_drop":
            await sockets.close(transport)
        elif rule.kind == "empty_response":
            headers = [(b"content-type", b"application/json"), (b"content-length", b"0")]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
        else:
            await self._spoil(rule, scope, receive, send, transport)

    async def _spoil(
        self, rule: FaultRule, scope: Scope, receive: Receive, send: Send, transport: Any
    ) -> None:
        """Faults on the way back: the request was processed, its response goes wrong."""
        start, body = await _capture(self.app, scope, receive)
        if rule.kind == "malformed_json":
            spoiled = body[: len(body) // 2] + b"\x00<!-- upstream reset -->"
            await send(_with_length(start, len(spoiled)))
            await send({"type": "http.response.body", "body": spoiled})
        elif rule.kind == "truncated_body":
            if transport is None:
                raise sockets.emulated("truncated_body")
            await send(_with_length(start, len(body)))
            await send(
                {
                    "type": "http.response.body",
                    "body": body[: int(len(body) * rule.params["fraction"])],
                    "more_body": True,
                }
            )
            await sockets.close(transport)
        else:  # slow_drip
            size, pause = int(rule.params["chunk_bytes"]), rule.params["interval_ms"] / 1000
            await send(_with_length(start, len(body)))
            for offset in range(0, len(body), size):
                await send(
                    {
                        "type": "http.response.body",
                        "body": body[offset : offset + size],
                        "more_body": True,
                    }
                )
                await self.runtime.holds.wait(pause)
            await send({"type": "http.response.body", "body": b""})
