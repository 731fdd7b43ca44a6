"""One ASGI endpoint per contract operation: authenticate, validate, handle, check.

The order is the contract's: a missing or unknown key is `401` before anything else is
looked at; then the request is validated (`400` naming each bad field); then the handler
runs; then the response is checked against the contract before it leaves. A response that
breaks the contract, or a handler that crashes, is a simulator bug: it is logged loudly
and answered as a `500` problem — or raised, when the config asks tests to fail loudly.
"""

from __future__ import annotations

import binascii
import hmac
import os
import random
from collections.abc import Callable
from urllib.parse import parse_qsl

import orjson
from starlette.datastructures import Headers
from starlette.types import Message, Receive, Scope, Send

from billing_toolkit.contract.operations import Operation
from billing_toolkit.simulator.body import BodyTooLarge, declared_length, read_body
from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.prefer import PreferRefused, parse_prefer, preferred_reply
from billing_toolkit.simulator.problems import (
    PROBLEM,
    Reply,
    infrastructure,
    invalid,
    too_large,
    unauthorized,
)
from billing_toolkit.simulator.rate_limit import refusal
from billing_toolkit.simulator.runtime import Runtime
from billing_toolkit.simulator.state.models import Tenant
from billing_toolkit.simulator.validation import (
    ContractValidator,
    ContractViolation,
    IncomingRequest,
    RequestRejected,
)
from billing_toolkit.simulator.validation.messages import OutgoingResponse

Authenticator = Callable[[Headers], tuple[Tenant | None, Reply | None]]

TWO_CREDENTIALS = "Send exactly one Authorization header."
"""Two `Authorization` headers are refused, never resolved: a proxy that reads the first
and an API that reads the last would authenticate different callers."""


def bearer_token(headers: Headers) -> str | None:
    """The bearer token of the one `Authorization` header (None: absent, not a bearer, or
    sent more than once)."""
    values = headers.getlist("authorization")
    if len(values) != 1:
        return None
    scheme, _, token = values[0].partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _credentials_refused(headers: Headers, detail: str) -> Reply:
    return unauthorized(TWO_CREDENTIALS if len(headers.getlist("authorization")) > 1 else detail)


def tenant_authenticator(runtime: Runtime) -> Authenticator:
    """Billing: the bearer key names the tenant; anything else is 401."""

    def authenticate(headers: Headers) -> tuple[Tenant | None, Reply | None]:
        token = bearer_token(headers)
        tenant = runtime.store.tenant_for_key(token) if token else None
        if tenant is not None:
            return tenant, None
        return None, _credentials_refused(headers, "A valid bearer API key is required.")

    return authenticate


def admin_authenticator(runtime: Runtime) -> Authenticator:
    """Admin: the bearer token must be the configured admin token (constant-time compare)."""
    expected = runtime.config.admin_token.encode()

    def authenticate(headers: Headers) -> tuple[Tenant | None, Reply | None]:
        token = bearer_token(headers)
        if token is not None and hmac.compare_digest(token.encode(), expected):
            return None, None
        return None, _credentials_refused(headers, "A valid admin token is required.")

    return authenticate


def request_id_in(scope: Scope) -> str:
    """The id the request-context layer gave this request (one is made if it did not run)."""
    state = scope.setdefault("state", {})
    if "request_id" not in state:
        state["request_id"] = new_request_id()
    return str(state["request_id"])


_HEX_TO_LETTERS = bytes.maketrans(b"0123456789abcdef", b"abcdefghijklmnop")


_ids = random.Random(os.urandom(16))
"""Request ids need uniqueness, not secrecy: a seeded generator spares a getrandom(2)
system call per request (reseeded in a forked child, which would otherwise repeat ours)."""
os.register_at_fork(after_in_child=lambda: _ids.seed(os.urandom(16)))


def new_request_id() -> str:
    """`req-` and 16 random letters a–p (64 bits: no collisions within any log we keep).

    Letters, not hex digits: every identifier the log masker looks for needs digits, so an
    id of ours can never be mistaken for one, and masking it costs one scan per line.
    Spelled in C (`b2a_hex`, `bytes.translate`): formatting and `str.translate` were a
    few microseconds of every request."""
    hex_digits = binascii.b2a_hex(_ids.getrandbits(64).to_bytes(8))
    return "req-" + hex_digits.translate(_HEX_TO_LETTERS).decode()


Rendered = OutgoingResponse
"""A reply as bytes on its way out: what the validators check is what is sent."""


def render(reply: Reply, request_id: str, path: str) -> Rendered:
    body = reply.body
    if reply.media_type == PROBLEM:
        body = {**body, "request_id": request_id, "instance": path}
    content = b"" if body is None else orjson.dumps(body)
    headers = {**reply.headers, "X-Request-Id": request_id}
    return Rendered(reply.status, headers, reply.media_type, content, body)


def response_start(rendered: Rendered) -> Message:
    """The `http.response.start` message Starlette's `Response` would send for `rendered`:
    its headers lower-cased, then `content-length` (not on 1xx/204/304), then the type."""
    headers = [
        (k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in rendered.headers.items()
    ]
    if rendered.status >= 200 and rendered.status not in (204, 304):
        headers.append((b"content-length", str(len(rendered.body)).encode()))
    headers.append((b"content-type", rendered.media_type.encode("latin-1")))
    return {"type": "http.response.start", "status": rendered.status, "headers": headers}


async def send_rendered(send: Send, rendered: Rendered) -> None:
    await send(response_start(rendered))
    await send({"type": "http.response.body", "body": rendered.body})


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
        validator.validate_response(operation_id, incoming, rendered)
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


def query_items(scope: Scope) -> list[tuple[str, str]]:
    """The query string as (name, value) pairs, decoded as Starlette's `QueryParams` does."""
    raw: bytes = scope.get("query_string", b"")
    return parse_qsl(raw.decode("latin-1"), keep_blank_values=True) if raw else []


class OperationEndpoint:
    """One contract operation as an ASGI app (path parameters in `scope["path_params"]`).

    It reads the request straight from the ASGI scope rather than through Starlette's
    `Request`, and sends the two response messages itself: per request, that object and
    its lazily built views cost more than the operation's own work.
    """

    def __init__(
        self,
        runtime: Runtime,
        validator: ContractValidator,
        authenticate: Authenticator,
        operation: Operation,
        handler: Callable[[OperationContext], Reply],
    ) -> None:
        self.runtime, self.validator, self.authenticate = runtime, validator, authenticate
        self.operation, self.handler = operation, handler
        self.serves_billing = runtime.billing.operations.get(operation.operation_id) is operation
        """Billing, not `/_sim`: only billing is rate-limited and answers `Prefer`."""

    def _chosen(self, headers: Headers, tenant: Tenant | None, request_id: str) -> Reply | None:
        """The limiter's 429 or the response `Prefer` asks for; None: serve the request;
        `PreferRefused` when the operation documents no such response.

        After authentication (an anonymous caller gets its 401 whatever it prefers), before
        the body is read: a refused or chosen answer runs no billing and changes no state."""
        runtime = self.runtime
        if tenant is not None and runtime.limiter.active:
            decision = runtime.limiter.take(tenant.tenant_id, self.operation.operation_id)
            if decision is not None and not decision.verdict.allowed:
                return refusal(decision)
        values = headers.getlist("prefer")
        if not values:
            return None
        try:
            preference = parse_prefer(values)
        except PreferRefused:
            if runtime.config.allow_prefer:
                raise
            return None
        if not preference.chosen:
            return None
        if not runtime.config.allow_prefer:
            runtime.log.warning(
                "ignored Prefer code/example: not allowed (serve with --allow-prefer)",
                extra={"request_id": request_id},
            )
            return None
        return preferred_reply(self.operation, preference)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request_id = request_id_in(scope)
        state = scope["state"]
        operation_id = state["operation_id"] = self.operation.operation_id
        headers = Headers(scope=scope)
        # Who is asking is settled before a byte of the body is read: an anonymous caller
        # cannot make the server buffer anything.
        tenant, reply = self.authenticate(headers) if self.operation.requires_auth else (None, None)
        state["tenant"] = tenant.tenant_id if tenant else None
        if reply is None and self.serves_billing:
            try:
                reply = self._chosen(headers, tenant, request_id)
            except PreferRefused as refused:
                # the simulator's answer about its own test header (as for X-Sim-Fault): a
                # 400 even where the operation documents none, so it is not checked
                await send_rendered(send, render(refused.reply, request_id, scope["path"]))
                return
        # An operation without a request body ignores one (both engines do), so neither
        # its type nor the receive channel is looked at: most requests are such GETs.
        takes_body = self.operation.body_media is not None and reply is None
        body = b""
        if takes_body:
            limit = self.runtime.config.max_body_bytes
            try:
                body = await read_body(receive, limit, declared_length(scope["headers"]))
            except BodyTooLarge as error:
                reply = too_large(error.limit)
        incoming = IncomingRequest(
            method=scope["method"],
            path=scope["path"],
            path_params=scope["path_params"],
            query=query_items(scope),
            headers=headers,
            content_type=headers.get("content-type", "") if takes_body else "",
            body=body,
        )
        if reply is None:
            reply = _handle(
                self.runtime,
                self.validator,
                operation_id,
                self.handler,
                incoming,
                tenant,
                request_id,
            )
        await send_rendered(
            send, checked(self.runtime, self.validator, operation_id, incoming, reply, request_id)
        )


def make_endpoint(
    runtime: Runtime, validator: ContractValidator, authenticate: Authenticator
) -> Callable[[Operation, Callable[[OperationContext], Reply]], OperationEndpoint]:
    def endpoint_for(
        operation: Operation, handler: Callable[[OperationContext], Reply]
    ) -> OperationEndpoint:
        return OperationEndpoint(runtime, validator, authenticate, operation, handler)

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
        return handler(OperationContext(tenant, valid, runtime, request_id, incoming.query))
    except Exception:
        runtime.log.exception(
            "handler crashed", extra={"request_id": request_id, "operation_id": operation_id}
        )
        if runtime.config.raise_on_invalid_response:
            raise
        return infrastructure(500)
