"""`billing-contract proxy` and `proxy-replay` as a CI job runs them: bad arguments are one
line and exit 2; a real run started in the background, stopped with SIGINT, writes the
report and a recording that `proxy-replay` judges the same way."""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from billing_toolkit.conformance.cli import main
from tests.conformance import broken
from tests.conformance.conftest import OPTIONS, running_simulator
from tests.conformance.proxy_support import send_traffic

pytestmark = OPTIONS
DEADLINE_S = 60
CLI = [sys.executable, "-m", "billing_toolkit.conformance.cli"]


@pytest.mark.parametrize(
    "arguments",
    [
        ["proxy"],
        ["proxy", "--upstream", "ftp://billing.example.com"],
        ["proxy", "--upstream", "billing.example.com"],
        ["proxy", "--upstream", "http://"],
        ["proxy", "--upstream", "http://127.0.0.1:notaport"],
        ["proxy", "--upstream", "http://127.0.0.1:8080/v1?x=1"],
        ["proxy", "--upstream", "http://127.0.0.1:8080", "--port", "99999"],
        ["proxy", "--upstream", "http://127.0.0.1:8080", "--port", "-1"],
        ["proxy", "--upstream", "http://127.0.0.1:8080", "--port", "http"],
        [
            "proxy",
            "--upstream",
            "http://127.0.0.1:8080",
            "--port",
            "0",
            "--record",
            "/no/such/dir/t.jsonl",
        ],
        ["proxy", "--upstream", "http://127.0.0.1:8080", "--port", "0", "--report", "r.txt"],
        [
            "proxy",
            "--upstream",
            "http://127.0.0.1:8080",
            "--port",
            "0",
            "--junit-xml",
            "/no/such/dir/j.xml",
        ],
        ["proxy-replay", "/no/such/recording.jsonl"],
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(
    arguments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        code = main(arguments)
        raise SystemExit(code)
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert (
        error.count("\n") == 1 and error.startswith("billing-contract") and "Traceback" not in error
    )


def test_a_port_in_use_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = str(taken.getsockname()[1])
        code = main(["proxy", "--upstream", "http://127.0.0.1:8080", "--port", port])
    assert code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"cannot listen on 127.0.0.1:{port}" in error


@pytest.mark.parametrize(
    "content",
    ["not json\n", '{"v": 99}\n', '{"v": 1, "method": "GET"}\n', "[1, 2]\n"],
    ids=["not-json", "other-version", "missing-fields", "not-an-object"],
)
def test_a_file_that_is_not_a_recording_is_one_line_and_exit_2(
    content: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recording = tmp_path / "bad.jsonl"
    recording.write_text(content, encoding="utf-8")
    assert main(["proxy-replay", str(recording)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"{recording}:1" in error


def _lines(stream: object, into: queue.Queue[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        into.put(line)


def test_proxy_in_the_background_then_replay_as_in_ci(tmp_path: Path) -> None:
    recording, report, junit = tmp_path / "t.jsonl", tmp_path / "proxy.json", tmp_path / "p.xml"
    with running_simulator(broken.TotalOffByOneCent) as target:
        process = subprocess.Popen(
            [
                *CLI,
                "proxy",
                "--upstream",
                target.base_url,
                "--port",
                "0",
                "--record",
                str(recording),
                "--report",
                str(report),
                "--junit-xml",
                str(junit),
            ],
            stderr=subprocess.PIPE,
            text=True,
        )
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=_lines, args=(process.stderr, lines), daemon=True).start()
        try:
            first = lines.get(timeout=DEADLINE_S)
            assert "listening on http://127.0.0.1:" in first, first
            url = first.split("listening on ")[1].split()[0]
            send_traffic(url, target)
        finally:
            process.send_signal(signal.SIGTERM)
            code = process.wait(timeout=DEADLINE_S)
    log = []
    while not lines.empty():
        log.append(lines.get())
    assert code == 1
    violations = [line for line in log if " VIOLATION " in line]
    assert {line.split()[3] for line in violations} == {"totals", "invoice.arithmetic"}
    assert f"8 exchanges, {len(violations)} violations" in log[-1], log
    assert target.account_number not in "".join(log) + recording.read_text()
    failed = {
        c["name"] for c in json.loads(report.read_text())["checks"] if c["status"] == "failed"
    }
    assert failed == {"totals", "invoice.arithmetic"}
    assert junit.read_text().count("<failure") == 2

    replayed_report = tmp_path / "replay.md"
    done = subprocess.run(
        [*CLI, "proxy-replay", str(recording), "--report", str(replayed_report)],
        capture_output=True,
        text=True,
        timeout=DEADLINE_S,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    replayed = [line for line in done.stderr.splitlines(keepends=True) if " VIOLATION " in line]
    assert replayed == violations
    assert "totals" in replayed_report.read_text()
    # `verify --replay` is the same judgement, for a CI job that already runs `verify`
    through_verify = subprocess.run(
        [*CLI, "verify", "--replay", str(recording)],
        capture_output=True,
        text=True,
        timeout=DEADLINE_S,
        check=False,
    )
    assert through_verify.returncode == 1, through_verify.stderr
    assert [
        line for line in through_verify.stderr.splitlines(keepends=True) if " VIOLATION " in line
    ] == violations
