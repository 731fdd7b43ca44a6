"""Conformance kit: checks any billing API's base URL against `contract/openapi.yaml`.

The command line is `billing-contract verify` (see README.md beside this file); from
Python, build settings and run:

    settings = build_settings({...}, known_checks=CHECK_NAMES)
    report = run_kit(settings)
"""

from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.outcome import CheckOutcome, Status
from billing_toolkit.conformance.runner import CHECK_NAMES, RunReport, run_kit
from billing_toolkit.conformance.settings import KitSettings, build_settings

__all__ = [
    "CHECK_NAMES",
    "CheckOutcome",
    "KitError",
    "KitSettings",
    "RunReport",
    "Status",
    "build_settings",
    "run_kit",
]
