"""The run report as a file: JSON (`.json`, for machines) or Markdown (`.md`, for people)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.outcome import Status
from billing_toolkit.conformance.reporting import reproduction
from billing_toolkit.conformance.runner import RunReport
from billing_toolkit.conformance.settings import REPORT_FORMATS
from billing_toolkit.conformance.writes import as_dict, describe, describe_totals, totals


def report_format(path: Path) -> str:
    """'json' or 'markdown' from the file name; anything else is a `KitError`."""
    try:
        return REPORT_FORMATS[path.suffix.lower()]
    except KeyError:
        raise KitError(f"--report {path}: the file name must end in .json or .md") from None


def report_dict(report: RunReport, secrets: Mapping[str, str]) -> dict[str, Any]:
    return {
        "base_url": report.base_url,
        "passed": report.passed,
        "allow_writes": report.allow_writes,
        "other_tenant": report.other_tenant,
        "seed": report.seed,
        "run_id": report.run_id,
        "requests": report.requests,
        "schemathesis_phases": list(report.schemathesis_phases),
        "counts": {status.value: report.count(status) for status in Status},
        "writes": [as_dict(write) for write in report.writes],
        "writes_total": {
            currency: f"{amount:f}" for currency, amount in totals(report.writes).items()
        },
        "checks": [
            {
                "name": outcome.name,
                "status": outcome.status.value,
                "summary": outcome.summary,
                "inspected": outcome.inspected,
                "violations": [v.message for v in outcome.violations],
                "reproduce": reproduction(outcome, secrets),
                "fix": outcome.remedy or None,
            }
            for outcome in report.outcomes
        ],
    }


def report_markdown(report: RunReport, secrets: Mapping[str, str]) -> str:
    verdict = "PASSED" if report.passed else "FAILED"
    writes = (
        "writes allowed (`--allow-writes`)"
        if report.allow_writes
        else "read-only (no `--allow-writes`)"
    )
    lines = [
        f"# Billing contract conformance: {verdict}",
        "",
        f"- API: `{report.base_url}`",
        f"- Mode: {writes}; other tenant key: {'given' if report.other_tenant else 'not given'}",
        f"- Requests: {report.requests}; seed: {report.seed}; run id: `{report.run_id}`",
        f"- Schemathesis phases: {', '.join(report.schemathesis_phases) or 'not run'}",
        f"- Writes made: {describe_totals(report.writes)}",
        "",
        "| check | result | inspected | detail |",
        "| --- | --- | ---: | --- |",
    ]
    for outcome in report.outcomes:
        detail = outcome.summary.replace("|", "\\|")
        lines.append(
            f"| {outcome.name} | {outcome.status.value} | {outcome.inspected} | {detail} |"
        )
    for outcome in report.outcomes:
        if outcome.status is not Status.FAILED:
            continue
        lines += ["", f"## {outcome.name}", ""]
        lines += [f"- {v.message}" for v in outcome.violations]
        curl = reproduction(outcome, secrets)
        if curl:
            lines += ["", "Reproduce:", "", "```sh", curl, "```"]
        if outcome.remedy:
            lines += ["", f"Fix: {outcome.remedy}"]
    if report.writes:
        lines += ["", "## Writes made", ""]
        lines += [f"- `{describe(write)}` → {write.status}" for write in report.writes]
    return "\n".join(lines) + "\n"


def write_report(path: Path, report: RunReport, secrets: Mapping[str, str]) -> None:
    if report_format(path) == "json":
        path.write_text(json.dumps(report_dict(report, secrets), indent=2) + "\n", encoding="utf-8")
    else:
        path.write_text(report_markdown(report, secrets), encoding="utf-8")
