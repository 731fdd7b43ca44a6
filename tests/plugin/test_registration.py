"""Installing the package registers the plugin, and loading it costs (almost) nothing."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points


def test_the_package_registers_the_plugin_with_pytest() -> None:
    (plugin,) = [ep for ep in entry_points(group="pytest11") if ep.name == "billing_sim"]
    assert plugin.value == "billing_toolkit.pytest_plugin.plugin"


def test_loading_the_plugin_does_not_import_the_simulator() -> None:
    """It loads in every pytest run of every user; the app (openapi-core, the contract,
    uvicorn) is imported only when a test asks for a fixture."""
    probe = (
        "import sys, billing_toolkit.pytest_plugin.plugin; "
        "print(sorted(m for m in ('billing_toolkit.simulator.app', 'openapi_core', 'uvicorn', 'billing_toolkit.client') "
        "if m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    ).stdout.strip()
    assert loaded == "[]"
