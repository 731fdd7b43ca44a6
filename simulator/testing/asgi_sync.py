"""A blocking httpx transport over an ASGI app, for the blocking client in-process.

`httpx.ASGITransport` is async only. This one runs the app on an event loop in a worker
thread (an anyio blocking portal, as Starlette's TestClient does) and hands each request
over. Exceptions the app raises reach the caller unchanged, which is how the simulator's
emulated socket faults (`httpx.ReadError`, ...) reach the client.
"""

from __future__ import annotations

from contextlib import ExitStack

import httpx
from anyio.from_thread import start_blocking_portal
from starlette.types import ASGIApp


class SyncASGITransport(httpx.BaseTransport):
    def __init__(self, app: ASGIApp) -> None:
        self._asgi = httpx.ASGITransport(app=app)
        self._exit = ExitStack()
        self._portal = self._exit.enter_context(start_blocking_portal())

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.read()
        replayable = httpx.Request(
            request.method, request.url, headers=request.headers, content=body
        )
        response = self._portal.call(self._asgi.handle_async_request, replayable)
        content = self._portal.call(response.aread)
        return httpx.Response(response.status_code, headers=response.headers, content=content)

    def close(self) -> None:
        self._exit.close()
