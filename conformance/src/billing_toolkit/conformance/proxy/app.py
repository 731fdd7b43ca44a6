"""The reverse proxy itself: a plain ASGI app that forwards each request to the upstream with
httpx, hands the exchange to an observer, and returns the upstream's answer unchanged.

The observer (judging, recording) runs before the answer goes back, so the proxy's cost is
what `benchmarks/proxy_overhead.py` measures, and a client never gets ahead of the log.
What the proxy itself refuses is answered as problem+json, never a 5xx for a client's
mistake: a body over `max_body` is 413 `payload_too_large`; an upstream that cannot be
reached, or answers more than `max_body`, is 502 `upstream_unavailable` (the proxy's own
failure, not the billing API's: those exchanges are not judged).
A request target that is not a path (`OPTIONS *`, an authority form) is 400 `validation_error`:
there is no upstream URL to make of it.
Bias: pass traffic through untouched (hop-by-hop headers aside: the fixed ones and every
header the `Connection` header names, in both directions, as RFC 9110 §7.6.1 asks); the
proxy observes, it never repairs.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import httpx

from billing_toolkit.conformance.exchange import Exchange

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Observer = Callable[[Exchange], None]

MAX_BODY_BYTES = 1024 * 1024
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
    }
)
PROBLEM_MEDIA_TYPE = "application/problem+json"


class _TooLarge(Exception):
    pass


def end_to_end(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """`headers` without the hop-by-hop ones: the fixed set and those `Connection` names."""
    named = {
        token.strip().lower()
        for name, value in headers
        if name.lower() == "connection"
        for token in value.split(",")
    }
    return [(name, value) for name, value in headers if name.lower() not in HOP_BY_HOP | named]


class ProxyApp:
    """Forward to `upstream` (a base URL; the request's path and query are appended)."""

    def __init__(
        self,
        upstream: str,
        observe: Observer | None = None,
        *,
        max_body: int = MAX_BODY_BYTES,
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.upstream = upstream.rstrip("/")
        self.observe = observe
        self.max_body = max_body
        self._client = httpx.AsyncClient(timeout=timeout, transport=transport)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send, self._client)
            return
        if scope["type"] != "http":
            return
        target = scope.get("raw_path") or scope["path"].encode()
        if not target.startswith(b"/"):
            await _problem(send, 400, "validation_error", "the request target must be a path")
            return
        try:
            body = await _read_body(receive, self.max_body)
        except _TooLarge:
            await _problem(
                send, 413, "payload_too_large", f"request body over {self.max_body} bytes"
            )
            return
        url = self.upstream + target.decode("latin-1")
        if scope.get("query_string"):
            url += "?" + scope["query_string"].decode("latin-1")
        headers = end_to_end(
            [(name.decode("latin-1"), value.decode("latin-1")) for name, value in scope["headers"]]
        )
        try:
            status, response_headers, response_body = await self._forward(
                scope["method"], url, headers, body
            )
        except httpx.InvalidURL:
            await _problem(
                send, 400, "validation_error", "the request target is not a valid URL path"
            )
            return
        except (httpx.HTTPError, _TooLarge) as exc:
            detail = "answered too large a body" if isinstance(exc, _TooLarge) else "is unreachable"
            await _problem(send, 502, "upstream_unavailable", f"the upstream {detail}")
            return
        if self.observe is not None:
            self.observe(
                Exchange(
                    method=scope["method"],
                    url=url,
                    request_headers=dict(headers),
                    request_body=body or None,
                    status=status,
                    response_headers=dict(response_headers),
                    response_body=response_body,
                )
            )
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (name.encode("latin-1"), value.encode("latin-1"))
                    for name, value in response_headers
                ]
                + [(b"content-length", str(len(response_body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": response_body})

    async def _forward(
        self, method: str, url: str, headers: list[tuple[str, str]], body: bytes
    ) -> tuple[int, list[tuple[str, str]], bytes]:
        request = self._client.build_request(method, url, headers=headers, content=body)
        response = await self._client.send(request, stream=True)
        try:
            chunks, size = [], 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > self.max_body:
                    raise _TooLarge
                chunks.append(chunk)
        finally:
            await response.aclose()
        # httpx decodes a compressed body (bounded above as decoded bytes), so the client gets
        # it plain and without the Content-Encoding that no longer describes it.
        kept = [
            (name, value)
            for name, value in end_to_end(response.headers.multi_items())
            if name.lower() != "content-encoding"
        ]
        return response.status_code, kept, b"".join(chunks)

    async def aclose(self) -> None:
        await self._client.aclose()


async def _read_body(receive: Receive, limit: int) -> bytes:
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    return b"".join(chunks)


async def _problem(send: Send, status: int, code: str, detail: str) -> None:
    body = json.dumps(
        {
            "type": f"about:blank#{code}",
            "title": detail,
            "status": status,
            "code": code,
            "detail": detail,
        }
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _lifespan(receive: Receive, send: Send, client: httpx.AsyncClient) -> None:
    """Close the upstream connections when the server stops."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await client.aclose()
            await send({"type": "lifespan.shutdown.complete"})
            return
