"""Serve an ASGI app with uvicorn on 127.0.0.1, on a free port, for the length of a test.

Uvicorn binds port 0 itself (the OS picks a free port, no race; a socket bound by the test
and handed over would lack TCP_NODELAY and add ~40 ms of delayed-ACK stall per request).
Readiness is the server's own `started` flag, waited on with a deadline: a server that does
not come up fails the test in seconds instead of hanging it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

STARTUP_DEADLINE_S = 15.0
SHUTDOWN_DEADLINE_S = 10.0


@contextmanager
def serve(app: Callable[..., Any]) -> Iterator[str]:
    """Run `app` in a background thread; yields its base URL."""
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="auto")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_DEADLINE_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError(f"the test server did not start within {STARTUP_DEADLINE_S} s")
        thread.join(timeout=0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=SHUTDOWN_DEADLINE_S)
