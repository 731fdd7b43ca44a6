"""A blocking httpx transport that serves requests from an ASGI app in this process.

`httpx.ASGITransport` is async-only, and the assistant's pipeline drives the blocking
`BillingClient`. This adapter runs the async transport on an anyio blocking portal (an event
loop in a helper thread, owned by the caller) and hands back a fully read response, so a CLI
command or a test can start the simulator in-process and talk to it exactly as to a remote
one — including the transport errors the simulator raises to emulate socket faults.
"""

from __future__ import annotations

from typing import Any

import httpx
from anyio.from_thread import BlockingPortal


class BlockingASGITransport(httpx.BaseTransport):
    """Sync transport over `httpx.ASGITransport(app)`, run on `portal`.

    Closing it (as `httpx.Client.close` does) leaves the portal running: many short-lived
    clients may share one app and one portal.
    """

    def __init__(self, app: Any, portal: BlockingPortal) -> None:
        self._inner = httpx.ASGITransport(app=app)
        self._portal = portal

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self._portal.call(self._send, request)

    async def _send(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        body = await response.aread()
        return httpx.Response(response.status_code, headers=response.headers, content=body,
                              request=request)
