"""The blocking client's seam to an ASGI app in the same process: no socket, no port.

`httpx.ASGITransport` is async only, and `BillingClient` is blocking. This transport runs the
async one on an anyio blocking portal (an event loop in a helper thread, as Starlette's
`TestClient` does) and hands back a fully read response, so a test or a CLI command talks to
an in-process billing API (the simulator) exactly as to a remote one:

```python
with BillingClient("http://billing.test", api_key,
                   transport=BlockingASGITransport(app)) as billing: ...
```

Whatever the app raises reaches the caller unchanged, which is how an in-process simulator's
emulated socket faults (`httpx.ReadError`, `httpx.ReadTimeout`, ...) reach the client's retry
and breaker as they would from a socket.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from contextlib import ExitStack
from typing import Any

import httpx
from anyio.from_thread import BlockingPortal, start_blocking_portal

ASGIApp = Callable[
    [
        MutableMapping[str, Any],
        Callable[[], Awaitable[MutableMapping[str, Any]]],
        Callable[[MutableMapping[str, Any]], Awaitable[None]],
    ],
    Awaitable[None],
]
"""An ASGI 3 application (a Starlette app, say), as `httpx.ASGITransport` takes it."""


class BlockingASGITransport(httpx.BaseTransport):
    """A sync httpx transport that serves every request from `app`, in this process.

    Without `portal` the transport starts its own event loop and stops it when closed (as
    `httpx.Client.close` does): one client, one transport. With `portal` the caller owns the
    loop and closing the transport leaves it running, so many short-lived clients can share
    one app, one loop and one transport object.
    """

    def __init__(self, app: ASGIApp, portal: BlockingPortal | None = None) -> None:
        self._inner = httpx.ASGITransport(app=app)
        self._owned = ExitStack()
        self._portal = portal or self._owned.enter_context(start_blocking_portal())

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        # Read a streamed (iterator) body here: the async transport only takes a body it
        # can read asynchronously, and a fully read one is both.
        request.read()
        return self._portal.call(self._send, request)

    async def _send(self, request: httpx.Request) -> httpx.Response:
        """One round trip on the portal's loop, the body read there too (one hop). The body
        is handed over as sent (still compressed if it was), with the headers that say so:
        the blocking client decodes it as it would a socket's."""
        response = await self._inner.handle_async_request(request)
        body = b"".join([chunk async for chunk in response.aiter_raw()])
        return httpx.Response(
            response.status_code, headers=response.headers, content=body, request=request
        )

    def close(self) -> None:
        self._owned.close()
