"""One Starlette endpoint per contract operation: authenticate, validate, handle, check.

The order is the contract's: a missing or unknown key is `401` before anything else is
looked at; then the request is validated (`400` naming each bad field); then the handler
runs; then the response is checked against the contract before it leaves. A response that
breaks the contract, or a handler that crashes, is a simulator bug: it is logged loudly
and answered as a `500` problem — or raised, when the config asks tests to fail loudly.
"""

from __future__ import annotations

import hmac
import json
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from simulator.handlers.context import OperationContext
from simulator.problems import PROBLEM, Reply, infrastructure, invalid, unauthorized
from simulator.runtime import Runtime
from simulator.state.models import Tenant
from simulator.validation import (
    ContractValidator,
    ContractViolation,
    IncomingRequest,
    Operation,
    RequestRejected,
)

Authenticator = Callable[[Mapping[str, str]], tuple[Tenant | None, Reply | None]]


def bearer_token(headers: Mapping[str, str]) -> str | None:
    scheme, _, token = headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def tenant_authenticator(runtime: Runtime) -> Authenticator:
    """Billing: the bearer key names the tenant; anything else is 401."""

    def authenticate(headers: Mapping[str, str]) -> tuple[Tenant | None, Reply | None]:
        token = bearer_token(headers)
        tenant = runtime.store.tenant_for_key(token) if token else None
        return (tenant, None) if tenant is not None else (None, unauthorized())

    return authenticate


def admin_authenticator(runtime: Runtime) -> Authenticator:
    """Admin: the bearer token must be the configured admin token (constant-time compare)."""
    expected = runtime.config.admin_token.encode()

    def authenticate(headers: Mapping[str, str]) -> tuple[Tenant | None, Reply | None]:
        token = bearer_token(headers)
        if token is not None and hmac.compare_digest(token.encode(), expected):
            return None, None
        return None, unauthorized("A valid admin token is required.")

    return authenticate


def request_id_of(request: Request) -> str:
    state = request.scope.setdefault("state", {})
    if "request_id" not in state:
        state["request_id"] = new_request_id()
    return str(state["request_id"])


def new_request_id() -> str:
    return f"req-{uuid.uuid4().hex[:16]}"


@dataclass(frozen=True, slots=True)
class Rendered:
    status: int
    headers: dict[str, str]
    media_type: str
    body: bytes
    parsed: Any


def render(reply: Reply, request_id: str, path: str) -> Rendered:
    body = reply.body
    if reply.media_type == PROBLEM:
        body = {**body, "request_id": request_id, "instance": path}
    content = (
        b""
        if body is None
        else json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
    )
    headers = {**reply.headers, "X-Request-Id": request_id}
    return Rendered(reply.status, headers, reply.media_type, content, body)


def checked(
    runtime: Runtime,
    validator: ContractValidator,
    operation_id: str,
    incoming: IncomingRequest,
    reply: Reply,
    request_id: str,
) -> Rendered:
    """The rendered reply if it keeps the contract; otherwise a logged 500 (or a raise)."""
    rendered = render(reply, request_id, incoming.path)
    if not runtime.config.validate_responses:
        return rendered
    try:
        validator.validate_response(
            operation_id,
            incoming,
            rendered.status,
            rendered.headers,
            rendered.media_type,
            rendered.body,
            rendered.parsed,
        )
    except ContractViolation as violation:
        runtime.log.error(
            "contract violation: %s",
            violation,
            extra={"request_id": request_id, "operation_id": operation_id},
        )
        if runtime.config.raise_on_invalid_response:
            raise
        return render(infrastructure(500), request_id, incoming.path)
    return rendered


async def incoming_request(request: Request) -> IncomingRequest:
    return IncomingRequest(
        method=request.method,
        path=request.scope["path"],
        path_params=request.path_params,
        query=request.query_params.multi_items(),
        headers=request.headers,
        content_type=request.headers.get("content-type", ""),
        body=await request.body(),
    )


def make_endpoint(
    runtime: Runtime, validator: ContractValidator, authenticate: Authenticator
) -> Callable[[Operation, Callable[[OperationContext], Reply]], Callable[[Request], Any]]:
    def endpoint_for(
        operation: Operation, handler: Callable[[OperationContext], Reply]
    ) -> Callable[[Request], Any]:
        operation_id = operation.operation_id

        async def endpoint(request: Request) -> Response:
            request_id = request_id_of(request)
            request.scope["state"]["operation_id"] = operation_id
            incoming = await incoming_request(request)
            tenant, reply = authenticate(request.headers) if operation.secured else (None, None)
            request.scope["state"]["tenant"] = tenant.tenant_id if tenant else None
            if reply is None:
                reply = _handle(
                    runtime, validator, operation_id, handler, incoming, tenant, request_id
                )
            rendered = checked(runtime, validator, operation_id, incoming, reply, request_id)
            return Response(rendered.body, rendered.status, rendered.headers, rendered.media_type)

        return endpoint

    return endpoint_for


def _handle(
    runtime: Runtime,
    validator: ContractValidator,
    operation_id: str,
    handler: Callable[[OperationContext], Reply],
    incoming: IncomingRequest,
    tenant: Tenant | None,
    request_id: str,
) -> Reply:
    try:
        valid = validator.validate_request(operation_id, incoming)
    except RequestRejected as rejected:
        return invalid(rejected.errors)
    try:
        return handler(OperationContext(tenant, valid, runtime, request_id))
    except Exception:
        runtime.log.exception(
            "handler crashed", extra={"request_id": request_id, "operation_id": operation_id}
        )
        if runtime.config.raise_on_invalid_response:
            raise
        return infrastructure(500)
