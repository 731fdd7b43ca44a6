"""Every console script, every bad argument: one line on stderr, exit 2, never a traceback.

One table for the three programs, so the convention (billing_toolkit.contract.cli) is held
the same everywhere: a user who mistypes a port in `billing-sim` and in `billing-assistant`
gets the same kind of answer.

The table calls each program's installed console-script entry point in this process (what
the script's wrapper calls, with `sys.exit` of its result): a subprocess per row cost a second
of interpreter and imports each, most of this file's time. That the scripts themselves are
installed and start is what the `--version` test proves, one real process per program.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
SYNTAX_ERROR_YAML = "rules:\n  - kind: http_503\n    operation: [getBalance\n"

BAD_ARGUMENTS: list[tuple[str, list[str]]] = [
    ("billing-sim", ["serve", "--port", "99999"]),
    ("billing-sim", ["serve", "--port", "-1"]),
    ("billing-sim", ["serve", "--port", "eighty"]),
    ("billing-sim", ["info", "--customers", "100000000"]),
    ("billing-sim", ["info", "--customers", "-3"]),
    ("billing-sim", ["info", "--seed", "x"]),
    ("billing-sim", ["scenario", "validate", "{missing}"]),
    ("billing-sim", ["scenario", "validate", "{syntax}"]),
    ("billing-sim", ["nosuchcommand"]),
    (
        "billing-contract",
        ["verify", "--base-url", "notaurl", "--account-number", "1000004821", "--api-key", "k"],
    ),
    ("billing-contract", ["verify", "--max-examples", "-1"]),
    ("billing-contract", ["verify", "--fuzz-time", "soon"]),
    ("billing-contract", ["verify", "--config", "{missing}"]),
    ("billing-contract", ["verify", "--config", "{syntax}"]),
    ("billing-contract", ["verify", "--checks", "nosuchcheck"]),
    ("billing-contract", ["nosuchcommand"]),
    ("billing-assistant", ["serve", "--port", "99999"]),
    ("billing-assistant", ["serve", "--port", "-1"]),
    ("billing-assistant", ["fake-graph", "--port", "99999"]),
    ("billing-assistant", ["kb", "search", "hola", "--margin", "-5"]),
    ("billing-assistant", ["kb", "search", "hola", "--min-chunks", "-1"]),
    (
        "billing-assistant",
        ["ask", "hola", "--phone", "+584121234567", "--base-url", "notaurl", "--api-key", "k"],
    ),
    ("billing-assistant", ["nosuchcommand"]),
]


def run_entry_point(program: str, argv: list[str]) -> int:
    """What `program argv` exits with, run through its console-script entry point here."""
    main: Callable[[list[str]], int | None] = entry_points(group="console_scripts")[program].load()
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse's own exits, and `sys.exit` in a handler
        code = exit_.code
    return code if isinstance(code, int) else 1


@pytest.mark.parametrize(
    ("program", "argv"), BAD_ARGUMENTS, ids=lambda v: " ".join(v) if isinstance(v, list) else v
)
def test_a_bad_argument_is_one_line_and_exit_2(
    program: str, argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    syntax = tmp_path / "broken.yaml"
    syntax.write_text(SYNTAX_ERROR_YAML, encoding="utf-8")
    argv = [a.format(missing=tmp_path / "nope.yaml", syntax=syntax) for a in argv]
    code = run_entry_point(program, argv)  # an uncaught exception fails the test here
    stderr = capsys.readouterr().err
    assert code == 2, (code, stderr[-800:])
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1, stderr
    if syntax.as_posix() in argv:  # a YAML syntax error names the file and the line
        assert "broken.yaml" in stderr and "line" in stderr, stderr


@pytest.mark.parametrize("program", ["billing-sim", "billing-contract", "billing-assistant"])
def test_every_program_tells_its_version(program: str) -> None:
    from importlib.metadata import version

    result = subprocess.run(
        [str(BIN / program), "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0 and version("billing-toolkit") in result.stdout
