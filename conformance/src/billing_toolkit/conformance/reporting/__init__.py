"""How a run is shown: live progress and a table on the console, JUnit XML for CI, and a
JSON or Markdown report file. All of them print the first failing request as curl with the
API keys replaced by `$BILLING_API_KEY` / `$BILLING_OTHER_API_KEY`."""

from __future__ import annotations

from collections.abc import Mapping

from billing_toolkit.conformance.exchange import as_curl
from billing_toolkit.conformance.outcome import CheckOutcome


def reproduction(outcome: CheckOutcome, secrets: Mapping[str, str]) -> str | None:
    """The curl command of the outcome's first failing request, when there is one."""
    violation = outcome.first_violation
    if violation is None or violation.exchange is None:
        return None
    return as_curl(violation.exchange, secrets)
