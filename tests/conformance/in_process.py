"""The mutant table's transport: the kit's requests handed to a broken API in this process.

Over loopback, a kit run and the uvicorn thread serving the mutant share one interpreter:
both sides pay for sockets and HTTP/1.1 framing, and the two threads trade the interpreter
lock on every request. This transport skips the wire and nothing else. The app gets the scope
uvicorn builds from the bytes the kit would send: the method, the raw path and query as
httpx encoded them, every header the client set (Host, User-Agent, Content-Length, ...) with
its name lower-cased, and the body in one message; requests from several threads at once
(the kit's concurrent retries) are served concurrently on one event loop, as uvicorn does.
`test_in_process.py` holds it to uvicorn's scope. The wire itself stays covered: the CLI
tests here and `test_against_simulator.py` run over a real socket.

Not `billing_toolkit.client.asgi.BlockingASGITransport`: it goes through
`httpx.ASGITransport`, whose trio detection tries to import sniffio (not installed) on every
request, which costs about as much CPU as the socket it saves.
"""

from __future__ import annotations

from contextlib import ExitStack
from urllib.parse import unquote

import httpx
from anyio.from_thread import start_blocking_portal

from tests.conformance.broken import ASGIApp, Scope, call

LOOPBACK_PEER = ("127.0.0.1", 50000)
"""The client address the app sees: a loopback peer, as when served by uvicorn."""


def uvicorn_scope(request: httpx.Request) -> Scope:
    """The ASGI scope uvicorn (httptools) builds for `request` as sent on the wire."""
    url = request.url
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "server": (url.host, url.port),
        "client": LOOPBACK_PEER,
        "scheme": url.scheme,
        "root_path": "",
        "headers": [(name.lower(), value) for name, value in request.headers.raw],
        "state": {},
        "method": request.method,
        "path": unquote(url.raw_path.split(b"?")[0].decode("ascii")),
        "raw_path": url.raw_path.split(b"?")[0],
        "query_string": url.query,
    }


class InProcessTransport(httpx.BaseTransport):
    """A sync httpx transport answering every request from `app` on an event loop of its own
    (in a helper thread), stopped when the client closes it."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app
        self._loop = ExitStack()
        self._portal = self._loop.enter_context(start_blocking_portal())

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self._portal.call(self._round_trip, request, request.read())

    async def _round_trip(self, request: httpx.Request, body: bytes) -> httpx.Response:
        reply = await call(self._app, uvicorn_scope(request), body)
        return httpx.Response(reply.status, headers=reply.headers, content=reply.body)

    def close(self) -> None:
        self._loop.close()
