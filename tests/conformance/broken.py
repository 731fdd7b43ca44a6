"""Deliberately broken billing APIs: ASGI wrappers around the simulator, one defect each.

Each wrapper calls the real simulator app and bends one thing on the way in or out, so
the rest of the API stays correct and the kit must name exactly the check that the
defect breaks. `BROKEN` maps a wrapper to the check(s) the kit should fail with.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from urllib.parse import parse_qs

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

INVOICE_PATH = re.compile(r"^/v1/invoices/(INV-\d{4}-\d{6})$")
PAYMENTS_PATH = re.compile(r"^/v1/customers/\d{10}/payments$")


@dataclass
class Reply:
    """A fully buffered response: easy to inspect and rewrite."""

    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes

    def header(self, name: bytes) -> bytes | None:
        return next((v for k, v in self.headers if k.lower() == name), None)

    def without(self, name: bytes) -> list[tuple[bytes, bytes]]:
        return [(k, v) for k, v in self.headers if k.lower() != name]

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    def with_json(self, body: Any, status: int | None = None) -> Reply:
        return Reply(status or self.status, self.headers, json.dumps(body).encode())


async def call(app: ASGIApp, scope: Scope, body: bytes) -> Reply:
    """Run `app` on one request and buffer what it answers."""
    sent_body = False

    async def receive() -> Message:
        nonlocal sent_body
        if sent_body:
            return {"type": "http.disconnect"}
        sent_body = True
        return {"type": "http.request", "body": body, "more_body": False}

    reply = Reply(500, [], b"")
    chunks: list[bytes] = []

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            reply.status = message["status"]
            reply.headers = list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    reply.body = b"".join(chunks)
    return reply


def with_header(scope: Scope, name: bytes, value: bytes) -> Scope:
    headers = [(k, v) for k, v in scope["headers"] if k.lower() != name] + [(name, value)]
    return {**scope, "headers": headers}


def request_header(scope: Scope, name: bytes) -> bytes | None:
    return next((v for k, v in scope["headers"] if k.lower() == name), None)


class Wrapper:
    """Buffers each HTTP request and response; subclasses override `handle`."""

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        self.app = app
        self.primary_key = primary_key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        reply = await self.handle(scope, b"".join(chunks))
        headers = [(k, v) for k, v in reply.headers if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(reply.body)).encode()))
        await send({"type": "http.response.start", "status": reply.status, "headers": headers})
        await send({"type": "http.response.body", "body": reply.body})

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        return await call(self.app, scope, body)


class MoneyAsNumber(Wrapper):
    """Sends every `amount` and `total` as a JSON number (the float trap)."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        data = reply.json()
        if reply.status >= 400 or data is None:
            return reply
        return reply.with_json(_numbers_for_money(data))


def _numbers_for_money(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: float(Decimal(v))
            if k in ("amount", "total") and isinstance(v, str)
            else _numbers_for_money(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_numbers_for_money(v) for v in value]
    return value


class DropsRequiredField(Wrapper):
    """Leaves `currency` out of every invoice (a required property)."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        data = reply.json()
        if reply.status == 200 and isinstance(data, dict) and INVOICE_PATH.match(scope["path"]):
            data.pop("currency", None)
            return reply.with_json(data)
        return reply


class LeaksOtherTenant(Wrapper):
    """Serves any tenant's invoice to any valid key (answers 200 for another tenant's invoice)."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        if INVOICE_PATH.match(scope["path"]) and reply.status == 404:
            as_owner = with_header(scope, b"authorization", f"Bearer {self.primary_key}".encode())
            leaked = await call(self.app, as_owner, body)
            if leaked.status == 200:
                return leaked
        return reply


class AppliesReplayTwice(Wrapper):
    """Ignores Idempotency-Key: a replayed payment is recorded again."""

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        super().__init__(app, primary_key)
        self.counter = 0

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        key = request_header(scope, b"idempotency-key")
        if scope["method"] == "POST" and PAYMENTS_PATH.match(scope["path"]) and key:
            self.counter += 1
            scope = with_header(scope, b"idempotency-key", key + f"-{self.counter}".encode())
        return await call(self.app, scope, body)


class ReturnsNeighbour(Wrapper):
    """On an unknown invoice number, returns an invoice one transposition away."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        match = INVOICE_PATH.match(scope["path"])
        if not match or reply.status != 404:
            return reply
        prefix, sequence = match.group(1).rsplit("-", 1)
        for i in range(len(sequence) - 1):
            swapped = sequence[:i] + sequence[i + 1] + sequence[i] + sequence[i + 2 :]
            path = f"/v1/invoices/{prefix}-{swapped}"
            neighbour = await call(
                self.app, {**scope, "path": path, "raw_path": path.encode()}, body
            )
            if neighbour.status == 200:
                return neighbour
        return reply


class CrashesOnBadLimit(Wrapper):
    """Answers 500 when `limit` is not a number from 1 to 100 (a parse error left unhandled)."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        query = parse_qs(scope.get("query_string", b"").decode())
        limits = query.get("limit", [])
        if limits and not (limits[0].isdigit() and 1 <= int(limits[0]) <= 100):
            reply = await call(self.app, {**scope, "query_string": b""}, body)
            problem = {
                "type": "about:blank",
                "title": "Internal error",
                "status": 500,
                "code": "internal",
            }
            headers = reply.without(b"content-type") + [
                (b"content-type", b"application/problem+json")
            ]
            return Reply(500, headers, json.dumps(problem).encode())
        return await call(self.app, scope, body)


class OmitsRetryAfter(Wrapper):
    """Strips Retry-After from every response (429 and 503 included)."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        return Reply(reply.status, reply.without(b"retry-after"), reply.body)


class OmitsRequestId(Wrapper):
    """Strips X-Request-Id from error responses only (a common middleware-order bug)."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        if reply.status < 400:
            return reply
        return Reply(reply.status, reply.without(b"x-request-id"), reply.body)


class TotalOffByOneCent(Wrapper):
    """Adds a cent to every invoice total, so total ≠ subtotal + tax."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        data = reply.json()
        if reply.status == 200 and isinstance(data, dict) and INVOICE_PATH.match(scope["path"]):
            data["total"] = f"{Decimal(data['total']) + Decimal('0.01'):.2f}"
            return reply.with_json(data)
        return reply


class AcceptsAnyKey(Wrapper):
    """Serves a request refused with 401 as the primary tenant (an authentication bypass)."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        if reply.status != 401:
            return reply
        as_primary = with_header(scope, b"authorization", f"Bearer {self.primary_key}".encode())
        return await call(self.app, as_primary, body)


# Wrapper → (the one check the kit must fail, whether schemathesis is needed to see it).
BROKEN: dict[type[Wrapper], tuple[str, bool]] = {
    MoneyAsNumber: ("money", False),
    DropsRequiredField: ("schemathesis.response_schema_conformance", True),
    LeaksOtherTenant: ("tenancy", False),
    AppliesReplayTwice: ("idempotency", False),
    ReturnsNeighbour: ("exact_lookup", False),
    CrashesOnBadLimit: ("validation", False),
    OmitsRequestId: ("request_id", False),
    TotalOffByOneCent: ("totals", False),
    AcceptsAnyKey: ("authentication", False),
}
