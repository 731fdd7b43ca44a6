"""Fixtures shared by the contract's own tests: the documents, loaded once."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from billing_toolkit.contract import OPENAPI_PATH


@pytest.fixture(scope="session")
def spec() -> dict[str, Any]:
    with OPENAPI_PATH.open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)
