"""Faults below HTTP, against a real uvicorn server on 127.0.0.1 (free port)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from billing_toolkit.simulator import (
    RealClock,
    RunningServer,
    control_of,
    create_app,
    serve_in_thread,
)
from billing_toolkit.simulator.control import SimulatorControl
from tests.simulator.conftest import small_config


@pytest.fixture(scope="module")
def live() -> Iterator[tuple[RunningServer, SimulatorControl, dict[str, Any]]]:
    app = create_app(small_config(validation_engine="compiled", clock=RealClock()))
    server = serve_in_thread(app)
    control = control_of(app)
    try:
        yield server, control, control.info()["tenants"][0]
    finally:
        control.faults.clear()
        server.stop()


@pytest.fixture
def target(
    live: tuple[RunningServer, SimulatorControl, dict[str, Any]],
) -> Iterator[tuple[str, dict[str, str], SimulatorControl]]:
    server, control, tenant = live
    account = tenant["samples"]["open_invoice"]["account_number"]
    yield (
        f"{server.url}/v1/customers/{account}/balance",
        {"Authorization": f"Bearer {tenant['api_key']}"},
        control,
    )
    control.faults.clear()


def _raw_exchange(url: str, headers: dict[str, str]) -> tuple[bytes, BaseException | None]:
    """Send one request on a plain socket; return every byte received and how reading ended."""
    parts = urlsplit(url)
    lines = [
        f"GET {parts.path} HTTP/1.1",
        f"Host: {parts.netloc}",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    received = b""
    with socket.create_connection((parts.hostname, parts.port), timeout=5) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except OSError as error:
            return received, error
    return received, None


def test_connection_reset_sends_an_rst(
    target: tuple[str, dict[str, str], SimulatorControl],
) -> None:
    url, headers, control = target
    control.faults.add("connection_reset", operation="getBalance")
    received, error = _raw_exchange(url, headers)
    assert received == b"" and isinstance(error, ConnectionResetError)
    with pytest.raises(httpx.TransportError):
        httpx.get(url, headers=headers, timeout=5)


def test_connection_drop_closes_without_a_byte(
    target: tuple[str, dict[str, str], SimulatorControl],
) -> None:
    url, headers, control = target
    control.faults.add("connection_drop", operation="getBalance")
    assert _raw_exchange(url, headers) == (b"", None)
    with pytest.raises(httpx.RemoteProtocolError):
        httpx.get(url, headers=headers, timeout=5)


def test_truncated_body_promises_more_than_it_sends(
    target: tuple[str, dict[str, str], SimulatorControl],
) -> None:
    url, headers, control = target
    control.faults.add("truncated_body", operation="getBalance", fraction=0.5)
    received, _ = _raw_exchange(url, headers)
    head, _, body = received.partition(b"\r\n\r\n")
    length = int(
        next(
            line.split(b":")[1]
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length")
        )
    )
    assert head.startswith(b"HTTP/1.1 200") and 0 < len(body) < length
    with pytest.raises(httpx.RemoteProtocolError):
        httpx.get(url, headers=headers, timeout=5)


def test_timeout_holds_one_request_while_others_are_served(
    target: tuple[str, dict[str, str], SimulatorControl],
) -> None:
    url, headers, control = target
    control.faults.add("timeout", operation="getBalance", hold_s=1.5, times=1)
    outcome: list[BaseException] = []
    held_started = threading.Event()

    def held() -> None:
        held_started.set()
        try:
            httpx.get(url, headers=headers, timeout=0.5)
        except httpx.HTTPError as error:
            outcome.append(error)

    thread = threading.Thread(target=held)
    thread.start()
    held_started.wait()
    while not control.faults.events():
        threading.Event().wait(0.01)
    served = httpx.get(url.replace("/balance", ""), headers=headers, timeout=5)
    assert served.status_code == 200 and thread.is_alive()  # served while the other is held
    thread.join(5)
    assert len(outcome) == 1 and isinstance(outcome[0], httpx.ReadTimeout)


def test_held_timeout_ends_in_a_504_problem(
    target: tuple[str, dict[str, str], SimulatorControl],
) -> None:
    url, headers, control = target
    control.faults.add("timeout", operation="getBalance", hold_s=0.2, times=1)
    response = httpx.get(url, headers=headers, timeout=5)
    assert response.status_code == 504 and response.json()["code"] == "unavailable"
