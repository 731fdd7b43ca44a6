"""The README's "Breaking-change detection" section is true: its CI command runs as written
on this repository, and its rule table is the rule table the diff applies."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from billing_toolkit.conformance.cli import main
from billing_toolkit.conformance.diff import CATALOGUE
from billing_toolkit.contract.paths import CONTRACT_DIR, OPENAPI_PATH

README = Path(__file__).resolve().parents[2] / "conformance" / "README.md"
SECTION = "## Breaking-change detection"


def section() -> str:
    text = README.read_text(encoding="utf-8")
    assert SECTION in text
    rest = text.split(SECTION, 1)[1]
    return rest.split("\n## ", 1)[0]


def ci_command() -> str:
    blocks = re.findall(r"```sh\n(.*?)```", section(), flags=re.DOTALL)
    commands = [
        line
        for block in blocks
        for line in block.splitlines()
        if line.startswith("billing-contract diff")
    ]
    assert len(commands) == 1, commands
    return commands[0]


def test_ci_command_runs_as_written_from_the_repository_root(tmp_path: Path) -> None:
    """The installed console script, in a checkout with the contract folder, as CI runs it."""
    (tmp_path / "contract").symlink_to(CONTRACT_DIR, target_is_directory=True)
    program, *argv = shlex.split(ci_command())
    script = Path(sys.executable).parent / program
    done = subprocess.run(
        [str(script), *argv], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    output = tmp_path / argv[argv.index("--output") + 1]
    assert output.read_text(encoding="utf-8").startswith("# Contract diff: 1.0.0 → ")
    assert "report in contract-diff.md" in done.stdout


def test_ci_command_fails_the_job_on_a_breaking_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same command, with a proposal that drops an operation and keeps the version."""
    (tmp_path / "contract" / "released").mkdir(parents=True)
    for released in (CONTRACT_DIR / "released").glob("*.yaml"):
        (tmp_path / "contract" / "released" / released.name).symlink_to(released)
    text = OPENAPI_PATH.read_text(encoding="utf-8")
    proposal = text.replace("operationId: getLiveness", "operationId: getLivenessProbe")
    assert proposal != text
    (tmp_path / "contract" / "openapi.yaml").write_text(proposal, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    _, *argv = shlex.split(ci_command())
    assert main(argv) == 1
    report = (tmp_path / "contract-diff.md").read_text(encoding="utf-8")
    assert "`operation-id-changed`" in report and "`breaking-change-without-major-bump`" in report
    assert "2 error" in capsys.readouterr().out


def test_the_yaml_job_runs_the_same_command() -> None:
    assert f"- run: {ci_command()}\n" in section()


def test_rule_table_lists_every_rule_with_its_severity() -> None:
    rows = [line for line in section().splitlines() if line.startswith("| `")]
    assert rows == [
        f"| `{rule.id}` | {rule.severity.value} | {rule.summary} |" for rule in CATALOGUE
    ]
