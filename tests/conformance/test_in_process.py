"""The mutant table's in-process transport hands the app the request uvicorn would.

The same kit requests (an encoded path and query, a JSON payment with its key, one without
credentials) go once over loopback to uvicorn and once through `InProcessTransport`, to an
app that records what it was handed: the scopes and bodies must be the same, so a mutant
judged in-process sees exactly what it would see behind a socket.
"""

from __future__ import annotations

from typing import Any

from billing_toolkit.conformance.calls import Call
from billing_toolkit.conformance.http import ApiSession, Identity
from billing_toolkit.conformance.runner import CHECK_NAMES
from billing_toolkit.conformance.settings import build_settings
from billing_toolkit.simulator.server import serve_in_thread
from tests.conformance.broken import Message, Receive, Scope, Send
from tests.conformance.in_process import InProcessTransport

PAYMENT = {"amount": "1.00", "currency": "USD", "method": "cash", "reference": "r-1"}
PEER_DEPENDENT = ("client",)
"""The one key the wire decides: the client's ephemeral port."""


class Recorder:
    """An ASGI app that keeps each request's scope and body and answers `{}`."""

    def __init__(self) -> None:
        self.seen: list[tuple[dict[str, Any], bytes]] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = b""
        message: Message = {"more_body": True}
        while message.get("more_body"):
            message = await receive()
            body += message.get("body", b"")
        kept = {k: v for k, v in scope.items() if k not in PEER_DEPENDENT}
        self.seen.append((kept, body))
        headers = [(b"content-type", b"application/json"), (b"content-length", b"2")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"{}"})


def send_the_kit_requests(base_url: str, transport: InProcessTransport | None) -> None:
    values = {"base_url": base_url, "api_key": "k-primary", "account_number": "1000000021"}
    settings = build_settings(values, known_checks=CHECK_NAMES, environ={})
    with ApiSession(settings, transport) as session:
        session.send(Call("/v1/customers/%2B58%20412", {"phone": "+58 412", "cursor": "a&b=c"}))
        session.send(
            Call(
                "/v1/customers/1000000021/payments",
                headers={"Idempotency-Key": "k1"},
                method="POST",
            ),
            json_body=PAYMENT,
        )
        session.send(Call("/v1/plans"), identity=Identity.NONE)


def test_the_app_is_handed_what_uvicorn_hands_it() -> None:
    on_the_wire = Recorder()
    server = serve_in_thread(on_the_wire)
    try:
        send_the_kit_requests(server.url, None)
    finally:
        server.stop()
    in_process = Recorder()
    send_the_kit_requests(server.url, InProcessTransport(in_process))
    assert in_process.seen == on_the_wire.seen
    assert len(on_the_wire.seen) == 3
    scope, _ = on_the_wire.seen[0]
    assert scope["raw_path"] == b"/v1/customers/%2B58%20412"
    assert scope["query_string"] == b"phone=%2B58+412&cursor=a%26b%3Dc"
