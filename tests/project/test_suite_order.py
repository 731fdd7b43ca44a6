"""The suite starts with its slowest files (`tests/conftest.py`), so two workers finish together."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SLOWEST_FILES

ROOT = Path(__file__).resolve().parents[2]


def test_every_file_named_slowest_exists() -> None:
    # A renamed or deleted test file would silently drop out of the order.
    assert [name for name in SLOWEST_FILES if not (ROOT / name).is_file()] == []
    assert len(set(SLOWEST_FILES)) == len(SLOWEST_FILES)


def test_the_slowest_files_are_collected_first_in_their_order(
    request: pytest.FixtureRequest,
) -> None:
    files = list(
        dict.fromkeys(item.path.relative_to(ROOT).as_posix() for item in request.session.items)
    )
    listed = [name for name in files if name in SLOWEST_FILES]
    assert files[: len(listed)] == listed
    assert listed == sorted(listed, key=SLOWEST_FILES.index)
