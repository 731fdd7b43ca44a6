"""SIGTERM while a `timeout` fault holds a request: the server stops within a second.

A real `billing-sim serve` on loopback (a subprocess, so the signal is the real one); the
held request answers its 504 at once instead of after `hold_s`, and the process exits.
Every wait is bounded.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

TOKEN = "shutdown-test-token"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until(check: object, what: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline and process.poll() is None, f"{what}: {log.read_text()}"
        time.sleep(0.05)


def test_sigterm_cancels_a_held_timeout_fault_within_a_second(tmp_path: Path) -> None:
    scenario = tmp_path / "hold.yaml"
    scenario.write_text("rules:\n  - {operation: getLiveness, kind: timeout, hold_s: 30}\n")
    port, log = _free_port(), tmp_path / "serve.log"
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "BILLING_SIM_ADMIN_TOKEN": TOKEN}
    command = [sys.executable, "-m", "billing_toolkit.simulator.cli", "serve", "--port", str(port),
               "--customers", "12", "--scenario", str(scenario), "--log-level", "warning"]  # fmt: skip
    admin = {"Authorization": f"Bearer {TOKEN}"}
    with log.open("w") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, env=env)
    held: dict[str, int] = {}
    try:

        def up() -> bool:
            try:
                return httpx.get(f"{base}/health/ready", timeout=1).status_code == 200
            except httpx.TransportError:
                return False

        _wait_until(up, "the server did not start", process, log)

        def call() -> None:
            held["status"] = httpx.get(f"{base}/health/live", timeout=20).status_code

        caller = threading.Thread(target=call, daemon=True)
        caller.start()

        def holding() -> bool:
            events = httpx.get(f"{base}/_sim/fault-events", headers=admin, timeout=2).json()
            return any(event["kind"] == "timeout" for event in events["data"])

        _wait_until(holding, "the timeout fault never fired", process, log)
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.wait(10)
        stopped = time.monotonic() - started
        caller.join(5)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)
    assert stopped < 1.0, f"shutdown took {stopped:.2f} s"
    assert held.get("status") == 504
