"""`billing-assistant serve`: one-line errors for bad settings, and the real server on
loopback (uvicorn, start-up, shutdown)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from billing_toolkit.assistant.channel.cli import CONFIG_ENV
from billing_toolkit.assistant.cli import main

EXAMPLE = (
    Path(__file__).parents[2]
    / "assistant"
    / "src"
    / "billing_toolkit"
    / "assistant"
    / "channel"
    / "tenants.example.yaml"
)
SECRETS = {
    "WHATSAPP_VERIFY_TOKEN": "verify-me",
    "FIBRANET_WHATSAPP_APP_SECRET": "app-secret",
    "FIBRANET_WHATSAPP_TOKEN": "graph-token",
    "FIBRANET_BILLING_API_KEY": "billing-key",
    "FIBRANET_AGENT_TOKEN": "agent-token",
}


@pytest.mark.parametrize(
    ("argv", "environ", "message"),
    [
        ([], {}, "--config (or $ASSISTANT_CHANNEL_CONFIG) must name the tenants file"),
        (["--config", "/nonexistent/tenants.yaml"], {}, "cannot read channel configuration"),
        (
            ["--config", str(EXAMPLE)],
            {},
            "environment variable FIBRANET_WHATSAPP_APP_SECRET (`app_secret_env`) is not set",
        ),
        (
            ["--config", str(EXAMPLE), "--store", "mysql://db/x"],
            SECRETS,
            "unsupported conversation store DSN",
        ),
        (
            ["--config", str(EXAMPLE), "--workers", "0"],
            SECRETS,
            "error: argument --workers: 0 is not between 1 and 256",
        ),
        (
            ["--config", str(EXAMPLE), "--port", "99999"],
            SECRETS,
            "error: argument --port: 99999 is not between 1 and 65535",
        ),
    ],
)
def test_a_bad_setting_is_one_line_and_exit_status_2(
    argv: list[str],
    environ: dict[str, str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in (*SECRETS, CONFIG_ENV):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("billing-assistant serve: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_until_up(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read().decode()  # type: ignore[union-attr]
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError("the service did not start within 30 s")


def test_the_service_serves_on_loopback_and_stops_cleanly(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    environ = {**os.environ, **SECRETS, "BILLING_API_URL": "http://127.0.0.1:9"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "billing_toolkit.assistant.cli",
            "serve",
            "--config",
            str(EXAMPLE),
            "--store",
            f"sqlite:///{tmp_path / 'bot.sqlite3'}",
            "--port",
            str(port),
            "--log-level",
            "info",
        ],
        env=environ,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        _wait_until_up(f"{base}/healthz", process)
        challenge = httpx.get(
            f"{base}/webhook",
            params={
                "hub.mode": "subscribe",
                "hub.verify_token": "verify-me",
                "hub.challenge": "77",
            },
        )
        assert challenge.text == "77"
        assert httpx.post(f"{base}/webhook", content=b"{}").status_code == 401
        queue = httpx.get(
            f"{base}/handoff/conversations", headers={"Authorization": "Bearer agent-token"}
        )
        assert queue.json() == {"conversations": []}
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    log = stderr.decode()
    assert process.returncode in (0, -signal.SIGTERM), log  # uvicorn re-raises the signal
    assert "Application shutdown complete." in log
    assert (tmp_path / "bot.sqlite3").exists()
    for secret in SECRETS.values():
        assert secret not in log
