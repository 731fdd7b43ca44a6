"""`billing-sim`: info, scenario validate, serve — one-line errors, never a traceback."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from billing_toolkit.simulator.cli import main
from billing_toolkit.simulator.state.dataset import generate
from billing_toolkit.simulator.state.info import dataset_info

SCENARIOS = sorted((Path(__file__).parents[2] / "simulator" / "scenarios").glob("*.yaml"))


def test_info_prints_the_dataset_info(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", "--seed", "9", "--customers", "12"]) == 0
    assert json.loads(capsys.readouterr().out) == dataset_info(generate(9, 12))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_shipped_scenarios_are_valid(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "validate", str(path)]) == 0
    assert "ok" in capsys.readouterr().out


@pytest.mark.parametrize(("text", "message"), [
    ("rules:\n  - operation: getBalance\n    kind: http_503\n    probability: 2\n", "rules[0].probability: must be"),
    ("rules:\n  - {operation: getBalance, kind: latency_fixed}\n  - {operation: listPlans, kind: nope}\n", "rules[0].ms: is required"),
    ("name: x\nrule: []\n", "rule: unknown field"),
    ("rules: [\n", "not valid YAML"),
])  # fmt: skip
def test_bad_scenarios_fail_with_one_specific_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    assert main(["scenario", "validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_missing_scenario_file_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "validate", "/no/such/file.yaml"]) == 1
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize("contents", [None, b"not a database, just text"])
def test_an_unusable_state_file_is_one_line_and_no_traceback(
    tmp_path: Path, contents: bytes | None, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "missing-folder" / "state.db"
    if contents is not None:
        state = tmp_path / "state.db"
        state.write_bytes(contents)
    assert main(["serve", "--state", str(state), "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(state) in err and "Traceback" not in err


def test_serve_answers_on_loopback(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = tmp_path / "serve.log"
    with log.open("w") as sink:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "billing_toolkit.simulator.cli",
                "serve",
                "--port",
                str(port),
                "--customers",
                "12",
                "--scenario",
                str(SCENARIOS[0]),
            ],
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    response = httpx.get(f"http://127.0.0.1:{port}/health/live", timeout=1)
                    break
                except httpx.TransportError:
                    assert time.monotonic() < deadline and process.poll() is None, log.read_text()
                    time.sleep(0.2)
            assert response.json() == {"status": "ok"}
        finally:
            process.terminate()
            process.wait(10)
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    request = next(line for line in lines if line.get("message") == "request")
    assert request["status"] == 200 and request["request_id"].startswith("req-")
