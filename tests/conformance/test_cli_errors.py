"""Bad input to the CLI is one line on stderr and exit code 2, never a traceback."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from billing_toolkit.conformance.cli import main
from billing_toolkit.contract.cli import EXIT_USAGE


def closed_port_url() -> str:
    """A loopback URL nothing listens on (the port was free a moment ago)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["verify"], "--base-url is required"),
        (["verify", "--base-url", "http://x", "--api-key", "k"], "name the test data"),
        (
            [
                "verify",
                "--base-url",
                "http://x",
                "--api-key",
                "k",
                "--invoice-number",
                "4281",
                "--account-number",
                "1000004821",
            ],
            "--invoice-number '4281' does not match",
        ),
        (["verify", "--bogus"], "unrecognized arguments: --bogus"),
        (
            [
                "verify",
                "--base-url",
                "http://x",
                "--api-key",
                "k",
                "--account-number",
                "1000004821",
                "--report",
                "out.pdf",
            ],
            "must end in .json or .md",
        ),
        (["verify", "--config", "/nonexistent/conformance.yaml"], "cannot read settings file"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("BILLING_API_KEY", raising=False)
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors exit from inside parse_args
        code = exc.code
    err = capsys.readouterr().err
    assert code == EXIT_USAGE
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_unreachable_api_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "verify",
            "--base-url",
            closed_port_url(),
            "--api-key",
            "k",
            "--account-number",
            "1000004821",
        ]
    )
    err = capsys.readouterr().err
    assert code == EXIT_USAGE
    assert err.startswith("billing-contract: error: cannot reach the API") and err.count("\n") == 1


def test_settings_file_refuses_api_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "conformance.yaml"
    config.write_text("base_url: http://127.0.0.1:8080\napi_key: secret\n")
    assert main(["verify", "--config", str(config)]) == EXIT_USAGE
    assert "keep keys out of files" in capsys.readouterr().err
