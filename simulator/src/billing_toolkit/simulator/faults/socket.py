"""Faults below HTTP: resetting or closing the client's TCP connection.

Under uvicorn the ASGI `receive` callable is a bound method of the connection's
request/response cycle, which holds the asyncio transport; that is how a fault reaches
the socket without a custom server. (This leans on uvicorn internals — h11 and httptools
both keep `cycle.transport` — and `tests/simulator/test_socket_faults.py` pins it.)

In-process (`httpx.ASGITransport`) there is no socket, so these faults are *emulated*:
the app raises the exception httpx raises for the same failure over a real connection
(`ReadTimeout`, `ReadError`, `RemoteProtocolError`), which ASGITransport propagates to
the client when `raise_app_exceptions=True` (its default). A held timeout is not held
in-process: ASGITransport enforces no client timeout, so holding would only stall tests.
"""

from __future__ import annotations

import asyncio
import socket
import struct
from typing import Any

import httpx
from starlette.types import Receive

EMULATED: dict[str, tuple[type[httpx.TransportError], str]] = {
    "timeout": (httpx.ReadTimeout, "timed out (simulated timeout fault)"),
    "connection_reset": (httpx.ReadError, "[Errno 104] Connection reset by peer (simulated)"),
    "connection_drop": (
        httpx.RemoteProtocolError,
        "Server disconnected without sending a response. (simulated)",
    ),
    "truncated_body": (
        httpx.RemoteProtocolError,
        "peer closed connection without sending complete message body (simulated)",
    ),
}


def transport_of(receive: Receive) -> Any | None:
    """The connection's asyncio transport under uvicorn; None in-process."""
    transport = getattr(getattr(receive, "__self__", None), "transport", None)
    return transport if hasattr(transport, "abort") else None


def emulated(kind: str) -> httpx.TransportError:
    error_type, message = EMULATED[kind]
    return error_type(message)


async def _settle() -> None:
    """Let the server see the connection go before the app returns (no stray 500)."""
    for _ in range(3):
        await asyncio.sleep(0)


async def reset(transport: Any) -> None:
    """RST: linger 0 then abort, so the peer reads ECONNRESET instead of a clean EOF."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()
    await _settle()


async def close(transport: Any) -> None:
    """FIN after whatever was already written has been flushed."""
    transport.close()
    await _settle()
