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

SCENARIOS = sorted(
    (
        Path(__file__).parents[2]
        / "simulator"
        / "src"
        / "billing_toolkit"
        / "simulator"
        / "scenarios"
    ).glob("*.yaml")
)


def test_info_prints_the_dataset_info(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", "--seed", "9", "--customers", "12"]) == 0
    assert json.loads(capsys.readouterr().out) == dataset_info(generate(9, 12))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_shipped_scenarios_are_valid(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "validate", str(path)]) == 0
    assert "ok" in capsys.readouterr().out


BAD_SCENARIOS = [
    ("rules:\n  - operation: getBalance\n    kind: http_503\n    probability: 2\n",
     ["line 4: rules[0].probability: must be"]),
    ("rules:\n  - {operation: getBalance, kind: latency_fixed}\n  - {operation: listPlans, kind: nope}\n",
     ["line 2: rules[0].ms: is required", "line 3: rules[1].kind: unknown fault kind 'nope'"]),
    ("name: x\nrule: []\n", ["rule: unknown field", "rules: must be a non-empty list"]),
    ("rules: [\n", ["line 2: not valid YAML"]),
    ("rules:\n  - operation: getBalance\n    kind: http_503\n    kind: http_500\n",
     ["line 4: 'kind' is given twice"]),
    (("rules:\n  - {operation: getBalance, kind: http_503, tenant: nosuch}\n"
      "  - {operation: getBalance, kind: http_503, customer: abc}\n"
      "  - {operation: getBalance, path: /v1/*, kind: http_503}\n"),
     ["line 2: rules[0].tenant: no tenant 'nosuch'", "line 3: rules[1].customer: 'abc' is not an account number",
      "line 4: rules[2].path: give an operation or a path, not both"]),
]  # fmt: skip


@pytest.mark.parametrize(("text", "messages"), BAD_SCENARIOS)
def test_bad_scenarios_report_every_problem_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, messages: list[str]
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    assert main(["scenario", "validate", str(path)]) == 2
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == len(messages) and "Traceback" not in err
    for line, message in zip(lines, messages, strict=True):
        assert line.startswith(f"billing-sim: {path}: ") and message in line


def test_missing_scenario_file_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "validate", "/no/such/file.yaml"]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and err.count("\n") == 1


BAD_ARGUMENTS = [
    (["serve", "--port", "99999"], "99999 is not between 0 and 65535"),
    (["serve", "--port", "-1"], "-1 is not between 0 and 65535"),
    (["serve", "--port", "http"], "'http' is not a whole number"),
    (["serve", "--seed", str(2**53)], "is not between 0 and 9007199254740991"),
    (["serve", "--customers", "3"], "3 is not between 12 and 5000"),
    (["serve", "--max-body-bytes", "0"], "0 is not between 1024 and"),
    (["serve", "--validation-engine", "fast"], "invalid choice: 'fast'"),
    (["info", "--customers", "100000000"], "100000000 is not between 12 and 5000"),
    (["info", "--seed", "-5"], "-5 is not between 0 and"),
    (["info", "--seed", "1e3"], "'1e3' is not a whole number"),
    (["serve", "--nope"], "unrecognized arguments: --nope"),
    (["scenario"], "required: scenario_command"),
    ([], "required: command"),
    (["scenario", "validate", "/no/such/dir/x.yaml"], "cannot read"),
]


@pytest.mark.parametrize(
    ("argv", "message"), BAD_ARGUMENTS, ids=[" ".join(a) or "none" for a, _ in BAD_ARGUMENTS]
)
def test_every_bad_argument_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code = _exit_code(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def _exit_code(argv: list[str]) -> int | str | None:
    """What the process would exit with: `main`'s return, or argparse's `SystemExit`."""
    try:
        return main(argv)
    except SystemExit as ended:
        return ended.code


def test_version_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["--version"])
    assert ended.value.code == 0
    assert capsys.readouterr().out.startswith("billing-sim 0.")


def test_a_state_file_of_another_seed_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from billing_toolkit.simulator import SimulatorConfig, create_app

    state = tmp_path / "state.db"
    create_app(SimulatorConfig(seed=7, customers_per_tenant=12, state_path=state))
    assert main(["serve", "--state", str(state), "--seed", "8", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "seed 7, not 8" in err and "--seed 7" in err


@pytest.mark.parametrize("contents", [None, b"not a database, just text"])
def test_an_unusable_state_file_is_one_line_and_no_traceback(
    tmp_path: Path, contents: bytes | None, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "missing-folder" / "state.db"
    if contents is not None:
        state = tmp_path / "state.db"
        state.write_bytes(contents)
    assert main(["serve", "--state", str(state), "--port", "0"]) == 2
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


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "sim.example.com"])
def test_serve_on_a_network_without_an_admin_token_refuses_to_start(
    host: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("BILLING_SIM_ADMIN_TOKEN", raising=False)
    assert main(["serve", "--host", host, "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "BILLING_SIM_ADMIN_TOKEN" in err and "--allow-dev-token" in err


@pytest.mark.parametrize(
    ("host", "token", "allow", "refused"),
    [
        ("127.0.0.1", "sim-admin-dev-token", False, False),
        ("localhost", "sim-admin-dev-token", False, False),
        ("::1", "sim-admin-dev-token", False, False),
        ("0.0.0.0", "sim-admin-dev-token", True, False),
        ("0.0.0.0", "a-token-of-our-own", False, False),
        ("0.0.0.0", "sim-admin-dev-token", False, True),  # set explicitly is no better
    ],
)
def test_only_the_dev_token_off_loopback_without_the_flag_is_refused(
    host: str, token: str, allow: bool, refused: bool
) -> None:
    from billing_toolkit.simulator.config import network_token_refusal

    assert (network_token_refusal(host, token, allow) is not None) is refused
