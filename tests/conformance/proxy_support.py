"""Shared by the proxy's tests: a validating proxy in front of an upstream on loopback, the
traffic a billing client sends, and the broken upstreams only the proxy's tests use."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx

from billing_toolkit.conformance.proxy.server import ProxyRun, open_proxy
from billing_toolkit.simulator.server import RunningServer, serve_in_thread
from tests.conformance.broken import (
    CUSTOMER_PATH,
    INVOICE_PATH,
    JsonRewriter,
    Reply,
    Scope,
    Wrapper,
    call,
)
from tests.conformance.conftest import Target

TIMEOUT_S = 10


@dataclass
class Proxied:
    run: ProxyRun
    served: RunningServer
    log: list[str]
    recording: io.StringIO = field(default_factory=io.StringIO)

    def rule_ids(self) -> set[str]:
        return {v.rule_id for v in self.run.session.verdicts}


@contextmanager
def proxied(upstream: str, *, masked: bool = True) -> Iterator[Proxied]:
    """A validating proxy to `upstream` on 127.0.0.1 and a free port, recording in memory."""
    log: list[str] = []
    recording = io.StringIO()
    run = open_proxy(upstream, log=log.append, record=recording, masked=masked)
    served = serve_in_thread(run.app)
    try:
        yield Proxied(run, served, log, recording)
    finally:
        served.stop()


def send_traffic(base_url: str, target: Target) -> list[int]:
    """What the assistant sends on a billing question: customer by phone, balance,
    invoices, one invoice, plans, and one unknown invoice (an error); every request
    carries an X-Request-Id. Returns the statuses."""
    headers = {"Authorization": f"Bearer {target.api_key}", "X-Request-Id": "proxy-test-1"}
    account = target.account_number
    statuses = []
    with httpx.Client(base_url=base_url, headers=headers, timeout=TIMEOUT_S) as client:
        for path, params in (
            ("/v1/customer-lookup", {"phone": target.customer_phone}),
            (f"/v1/customers/{account}", {}),
            (f"/v1/customers/{account}/balance", {}),
            (f"/v1/customers/{account}/invoices", {"limit": "5"}),
            ("/v1/plans", {}),
            ("/v1/invoices/INV-2026-999999", {}),
        ):
            statuses.append(client.get(path, params=params).status_code)
        invoices = client.get(f"/v1/customers/{account}/invoices", params={"limit": "5"}).json()
        number = invoices["data"][0]["invoice_number"]
        statuses.append(client.get(f"/v1/invoices/{number}").status_code)
    return statuses


class LeaksInternalField(JsonRewriter):
    """An ORM serialiser dumps every column: the customer carries `credit_score`, a property
    the contract does not document (and must never leave the system of record)."""

    PATH = CUSTOMER_PATH

    def rewrite(self, data: Any, scope: Scope) -> Any:
        if isinstance(data, dict) and "account_number" in data:
            data["credit_score"] = 712
        return data


class HtmlNotFound(Wrapper):
    """A web framework's default 404 page leaks past the API's error handler for invoices:
    text/html instead of application/problem+json."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        if reply.status == 404 and INVOICE_PATH.match(scope["path"]):
            kept = [(k, v) for k, v in reply.without(b"content-type")]
            return Reply(404, [*kept, (b"content-type", b"text/html")], b"<h1>Not Found</h1>")
        return reply
