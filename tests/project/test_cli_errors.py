"""Every console script, every bad argument: one line on stderr, exit 2, never a traceback.

One table for the three programs, so the convention (billing_toolkit.contract.cli) is held
the same everywhere: a user who mistypes a port in `billing-sim` and in `billing-assistant`
gets the same kind of answer.
"""

from __future__ import annotations

import subprocess
import sys
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


@pytest.mark.parametrize(
    ("program", "argv"), BAD_ARGUMENTS, ids=lambda v: " ".join(v) if isinstance(v, list) else v
)
def test_a_bad_argument_is_one_line_and_exit_2(
    program: str, argv: list[str], tmp_path: Path
) -> None:
    syntax = tmp_path / "broken.yaml"
    syntax.write_text(SYNTAX_ERROR_YAML, encoding="utf-8")
    argv = [a.format(missing=tmp_path / "nope.yaml", syntax=syntax) for a in argv]
    result = subprocess.run(
        [str(BIN / program), *argv], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 2, (result.returncode, result.stderr[-800:])
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    if syntax.as_posix() in argv:  # a YAML syntax error names the file and the line
        assert "broken.yaml" in result.stderr and "line" in result.stderr, result.stderr


@pytest.mark.parametrize("program", ["billing-sim", "billing-contract", "billing-assistant"])
def test_every_program_tells_its_version(program: str) -> None:
    from importlib.metadata import version

    result = subprocess.run(
        [str(BIN / program), "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0 and version("billing-toolkit") in result.stdout
