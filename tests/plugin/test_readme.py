"""The README's complete example runs, as written, as a user's suite (so it stays true)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "pytest_plugin" / "README.md"
FILE_BLOCK = re.compile(r"```python\n# (?P<name>[\w.]+\.py)\n(?P<code>.*?)```", re.DOTALL)


def readme_files() -> dict[str, str]:
    """Python blocks of the README that open with `# <file name>.py`."""
    return {m["name"]: m["code"] for m in FILE_BLOCK.finditer(README.read_text("utf-8"))}


def test_the_readme_shows_the_users_code_and_its_tests() -> None:
    assert set(readme_files()) == {"my_assistant.py", "test_my_assistant.py"}


def test_the_readme_example_passes_as_written(pytester: pytest.Pytester) -> None:
    for name, code in readme_files().items():
        pytester.makepyfile(**{name.removesuffix(".py"): code})
    pytester.syspathinsert()
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-q")
    result.assert_outcomes(passed=5)
