"""The contract is clean under the tools its users run: openapi-spec-validator and Redocly."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename

from billing_toolkit.contract import OPENAPI_PATH

REDOCLY = "@redocly/cli@2.77.0"


def test_openapi_spec_validator_passes() -> None:
    document, _ = read_from_filename(str(OPENAPI_PATH))
    validate(document)


@pytest.mark.slow
def test_redocly_recommended_lint_has_no_errors_and_no_warnings() -> None:
    npx = shutil.which("npx")
    assert npx, "Node/npm (npx) is a documented prerequisite of this project"
    result = subprocess.run(
        [npx, "--yes", REDOCLY, "lint", str(OPENAPI_PATH), "--format=json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.stdout.lstrip().startswith("{"), result.stderr[-2000:]
    report = json.loads(result.stdout)
    assert (report["totals"]["errors"], report["totals"]["warnings"]) == (0, 0), report["problems"]
