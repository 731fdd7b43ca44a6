"""The README explains every check the kit can report, in the words the code carries."""

from __future__ import annotations

from pathlib import Path

from billing_toolkit.conformance.catalogue import catalogue
from billing_toolkit.conformance.runner import CHECK_NAMES

README = Path(__file__).resolve().parents[2] / "conformance" / "README.md"


def test_readme_table_explains_every_check_with_its_remedy() -> None:
    text = README.read_text(encoding="utf-8")
    names = [name for name, _, _ in catalogue()]
    assert set(names) == CHECK_NAMES
    for name, meaning, remedy in catalogue():
        assert f"| `{name}` | {meaning} | {remedy} |" in text, name
