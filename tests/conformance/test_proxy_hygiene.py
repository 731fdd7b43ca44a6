"""The proxy as an attacker meets it: hop-by-hop headers named in `Connection` never cross
it (either way), a request target that is not a path is a 400 problem, and the recording
redacts every secret by name with the kernel's one policy. No server: the ASGI app is called
directly and the upstream is an `httpx.MockTransport`."""

from __future__ import annotations

import asyncio
import json
from collections.abc import MutableMapping
from typing import Any

import httpx
import pytest

from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.proxy.app import ProxyApp
from billing_toolkit.conformance.proxy.recording import exchange_line

SEEN: list[httpx.Request] = []


def _upstream(request: httpx.Request) -> httpx.Response:
    SEEN.append(request)
    return httpx.Response(
        200,
        headers=[("Connection", "X-Internal-Hop"), ("X-Internal-Hop", "leak"), ("X-Kept", "1")],
        json={"ok": True},
    )


def _call(path: bytes, method: str = "GET", headers: list[tuple[bytes, bytes]] | None = None
          ) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
    app = ProxyApp("http://upstream.test", transport=httpx.MockTransport(_upstream))
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    scope = {"type": "http", "method": method, "path": path.decode(), "raw_path": path,
             "query_string": b"", "headers": headers or []}  # fmt: skip
    asyncio.run(app(scope, receive, send))
    start, body = sent[0], b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, body


def test_headers_named_in_connection_are_dropped_both_ways() -> None:
    SEEN.clear()
    status, headers, _ = _call(
        b"/v1/plans",
        headers=[
            (b"connection", b"keep-alive, X-Forwarded-Secret"),
            (b"x-forwarded-secret", b"s"),
            (b"x-request-id", b"r1"),
        ],
    )
    assert status == 200
    assert "x-forwarded-secret" not in SEEN[0].headers and SEEN[0].headers["x-request-id"] == "r1"
    assert "x-internal-hop" not in {name.lower() for name in headers} and headers["x-kept"] == "1"


@pytest.mark.parametrize(("method", "target"), [("OPTIONS", b"*"), ("GET", b"upstream.test:80")])
def test_a_target_that_is_not_a_path_is_a_400_problem(method: str, target: bytes) -> None:
    status, headers, body = _call(target, method)
    assert status == 400 and headers["content-type"] == "application/problem+json"
    assert json.loads(body)["code"] == "validation_error"


def test_the_recording_redacts_secrets_by_name_in_headers_query_and_bodies() -> None:
    secret = "hunter2-Plain"
    exchange = Exchange(
        method="POST",
        url=f"http://up/v1/x?client_secret={secret}&sig={secret}&page=1",
        request_headers={"X-Api-Key": secret, "X-Hub-Signature-256": secret, "X-Kept": "1"},
        request_body=json.dumps({"login": {"password": secret}, "n": 1}).encode(),
        status=200,
        response_headers={"Set-Cookie": secret, "X-Auth-Token": secret},
        response_body=json.dumps({"refresh_token": secret}).encode(),
    )
    for masked in (True, False):
        line = exchange_line(exchange, masked=masked)
        assert secret not in line and '"X-Kept":"1"' in line and "page=1" in line
