"""Console scripts that say which extra to install instead of failing with a traceback.

The base install is the SDK and this kernel; `billing-sim`, `billing-contract` and
`billing-assistant` are installed with it (a distribution cannot make a script depend on an
extra) but need their extra's libraries. The kernel is the one package present in every
install, so the launcher that checks for them lives here. Bias: refuse to start, with the
one command that fixes it, rather than half-start and fail on the first request.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable

EXIT_USAGE = 2

EXTRAS: dict[str, tuple[str, ...]] = {
    "simulator": ("starlette", "uvicorn", "faker", "jsonschema_rs", "openapi_core", "orjson"),
    "conformance": ("schemathesis", "rich"),
    "assistant": ("starlette", "uvicorn", "numpy", "rich"),
}
"""Extra → the top-level modules its console script cannot start without."""


def missing_modules(extra: str) -> list[str]:
    """The modules of `extra` that this environment cannot import."""
    return [name for name in EXTRAS[extra] if importlib.util.find_spec(name) is None]


def launcher(extra: str, target: str) -> Callable[[], int]:
    """A console-script `main` that checks `extra` is installed, then runs `target`
    (`module:function`)."""

    def main() -> int:
        missing = missing_modules(extra)
        if missing:
            print(
                f"error: this command needs the '{extra}' extra (missing: {', '.join(missing)});"
                f" install it with: pip install 'billing-toolkit[{extra}]'",
                file=sys.stderr,
            )
            return EXIT_USAGE
        module, _, function = target.partition(":")
        entry: Callable[[], int] = getattr(importlib.import_module(module), function)
        return entry()

    return main


billing_sim = launcher("simulator", "billing_toolkit.simulator.cli:main")
billing_contract = launcher("conformance", "billing_toolkit.conformance.cli:main")
billing_assistant = launcher("assistant", "billing_toolkit.assistant.cli:main")
