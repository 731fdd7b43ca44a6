"""The README is the front door: its two set-up commands and its pytest example stay true."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_two_commands_are_make_targets_and_ci_runs_the_test_one() -> None:
    assert "make run" in README and "make test" in README
    for target in ("run", "test"):
        dry = subprocess.run(
            ["make", "-n", target],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert dry.returncode == 0, dry.stderr
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [
        line
        for line in ci.splitlines()
        if line.strip() and not line.startswith(("#", "set ", "cd "))
    ]
    assert commands == ["make test"]


def test_the_readme_pytest_example_passes_as_written(pytester: pytest.Pytester) -> None:
    block = re.search(
        r"```python\n(from billing_toolkit.client import Capabilities\n.*?)```", README, re.DOTALL
    )
    assert block, "the README shows a test against billing_sim"
    pytester.makepyfile(test_readme_example=block.group(1))
    pytester.runpytest_inprocess("-p", "no:cacheprovider", "-q").assert_outcomes(passed=1)
