"""The run's files (JUnit XML, the report), written on every exit, the unusable run included.

CI reads the files whatever the exit code: a run that could not start (exit 2: a bad
option, an unreachable API, test data not found, not the billing API) still writes them,
with the error as one failed case named `run`, so the pipeline shows why instead of
"no test results found". Bias: write what is known; only a file that cannot be written at
all (its directory is missing) is left out, and the run's own error line says why it stopped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from billing_toolkit.conformance.outcome import CheckOutcome, Status, Violation
from billing_toolkit.conformance.reporting.junit import write_junit
from billing_toolkit.conformance.reporting.report_file import write_report
from billing_toolkit.conformance.runner import RunReport
from billing_toolkit.conformance.settings import MAX_URL_CHARS, Outputs

RUN_CASE = "run"
"""The name of the failed case an unusable run reports (no check has this name)."""


def unusable_report(message: str, values: Mapping[str, Any]) -> RunReport:
    """The report of a run that stopped before judging anything: one failed case, `run`."""
    return RunReport(
        base_url=_shown_url(values.get("base_url")),
        allow_writes=values.get("allow_writes") is True,
        other_tenant=False,
        seed=0,
        run_id="",
        outcomes=(
            CheckOutcome(
                name=RUN_CASE,
                status=Status.FAILED,
                summary=message,
                violations=(Violation(message),),
                remedy="The run could not start or go on: fix what the message names and rerun.",
            ),
        ),
        requests=0,
    )


def write_outputs(outputs: Outputs, report: RunReport, secrets: Mapping[str, str]) -> None:
    """Write the JUnit XML and the report `outputs` names (either may be absent)."""
    if outputs.junit_xml is not None:
        write_junit(outputs.junit_xml, report, secrets)
    if outputs.report is not None:
        write_report(outputs.report, report, secrets)


def _shown_url(value: object) -> str:
    """The base URL as far as it can be shown: never its credentials, never unbounded."""
    if not isinstance(value, str):
        return ""
    try:
        parts = urlsplit(value[:MAX_URL_CHARS])
        host = parts.hostname or ""
        netloc = f"{host}:{parts.port}" if parts.port else host
    except ValueError:
        return ""
    return parts._replace(netloc=netloc).geturl()
