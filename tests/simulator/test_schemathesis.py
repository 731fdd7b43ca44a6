"""schemathesis against the live simulator: every check, every phase (examples, coverage,
fuzzing, stateful over the contract's links), zero failures.

Run through schemathesis' own CLI on a loopback server, so what passes here is exactly
what the billing team's `schemathesis run` would see. `schemathesis.toml` beside this file
holds the only tuning (documented statuses for rules a schema cannot express).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from billing_toolkit.contract import OPENAPI_PATH
from billing_toolkit.simulator import RealClock, control_of, create_app, serve_in_thread
from tests.simulator.conftest import small_config

CONFIG = Path(__file__).with_name("schemathesis.toml")


def test_schemathesis_all_checks_all_phases_zero_failures(tmp_path: Path) -> None:
    app = create_app(
        small_config(
            validation_engine="compiled", clock=RealClock(), raise_on_invalid_response=False
        )
    )
    api_key = control_of(app).info()["tenants"][0]["api_key"]
    server = serve_in_thread(app)
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "schemathesis.cli",
                "--config-file",
                str(CONFIG),
                "run",
                str(OPENAPI_PATH),
                "--url",
                server.url,
                "--checks",
                "all",
                "--header",
                f"Authorization: Bearer {api_key}",
                "--max-examples",
                "12",
                "--workers",
                "1",
                "--seed",
                "20261110",
                "--generation-database",
                "none",
                "--report-dir",
                str(tmp_path),
                "--no-color",
            ],
            capture_output=True,
            text=True,
            timeout=240,
            check=False,
            cwd=tmp_path,  # schemathesis keeps a cache in its working directory
        )
    finally:
        server.stop()
    summary = done.stdout[-4000:]
    assert done.returncode == 0, summary
    assert "Stateful" in summary and "passed" in summary
