"""Serving the app with uvicorn: in the foreground (the CLI) or in a background thread (tests).

`serve_in_thread` serves 127.0.0.1 on a free port (uvicorn binds port 0), so parallel
tests never collide, and returns once the server accepts connections. Socket faults (reset, drop, truncated
body) work with any uvicorn set-up; see `billing_toolkit.simulator.faults.socket`.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass

import uvicorn
from starlette.types import ASGIApp


def uvicorn_config(
    app: ASGIApp, host: str = "127.0.0.1", port: int = 8080, log_level: str = "info"
) -> uvicorn.Config:
    """uvicorn settings the simulator expects: our own request log (uvicorn's access log
    would print unmasked paths), no lifespan needed, uvicorn's HTTP/1.1 parser of choice
    (httptools, a declared dependency; h11 where it is missing)."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=False,
        lifespan="off",
        log_config=None,
    )


class SimulatorServer(uvicorn.Server):
    """uvicorn's server, which first ends every held fault when it starts shutting down:
    SIGTERM (or `should_exit`) then stops within a second, instead of after the longest
    `timeout` fault's `hold_s`. uvicorn only then waits for the requests in flight."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        runtime = getattr(getattr(config.app, "state", None), "runtime", None)
        self._holds = getattr(runtime, "holds", None)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        if self._holds is not None:
            self._holds.rearm()
        await super().startup(sockets)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self._holds is not None:
            self._holds.release()
        await super().shutdown(sockets)


def simulator_server(
    app: ASGIApp, host: str = "127.0.0.1", port: int = 8080, log_level: str = "info"
) -> SimulatorServer:
    return SimulatorServer(uvicorn_config(app, host, port, log_level))


@dataclass
class RunningServer:
    url: str
    server: uvicorn.Server
    thread: threading.Thread

    def stop(self, timeout: float = 10.0) -> None:
        self.server.should_exit = True
        self.thread.join(timeout)


def serve_in_thread(
    app: ASGIApp, host: str = "127.0.0.1", startup_timeout: float = 10.0
) -> RunningServer:
    """uvicorn binds port 0 itself: the OS picks a free port with no race, and uvicorn's
    own listening socket gives connections TCP_NODELAY (a socket bound here and handed over
    stalled each request ~40 ms on delayed ACKs)."""
    server = simulator_server(app, host, 0, log_level="warning")
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + startup_timeout
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            server.should_exit = True
            raise RuntimeError("the simulator did not start in time")
        thread.join(0.005)
    port = server.servers[0].sockets[0].getsockname()[1]
    return RunningServer(f"http://{host}:{port}", server, thread)
