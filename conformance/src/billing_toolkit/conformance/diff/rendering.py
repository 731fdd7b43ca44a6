"""A diff report as Markdown (for a pull request or a CI summary) and as JSON (for tools).

Both carry the same facts: the two versions, the count per severity and every change with its
rule id, kind, severity, operation, location and message. Nothing here decides anything.
"""

from __future__ import annotations

import json

from billing_toolkit.conformance.diff.changes import Change, Severity
from billing_toolkit.conformance.diff.engine import DiffReport

FORMATS = ("markdown", "json")


def _summary(report: DiffReport) -> dict[str, int]:
    return {severity.value: report.count(severity) for severity in Severity}


def _change_json(item: Change) -> dict[str, object]:
    return {
        "rule": item.rule,
        "kind": item.kind,
        "severity": item.severity.value,
        "announced": item.announced,
        "operation": item.operation,
        "location": item.location,
        "message": item.message,
    }


def render_json(report: DiffReport) -> str:
    payload = {
        "old": {"path": report.old_path, "version": report.old_version},
        "new": {"path": report.new_path, "version": report.new_version},
        "summary": _summary(report),
        "changes": [_change_json(item) for item in report.changes],
    }
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def render_markdown(report: DiffReport) -> str:
    counts = ", ".join(f"{count} {name}" for name, count in _summary(report).items())
    lines = [
        f"# Contract diff: {_cell(report.old_version)} → {_cell(report.new_version)}",
        "",
        f"`{_cell(report.old_path)}` → `{_cell(report.new_path)}`: {counts}.",
        "",
    ]
    if not report.changes:
        return "\n".join([*lines, "No changes a client or an implementation would notice.", ""])
    lines += ["| severity | rule | operation | where | change |", "| --- | --- | --- | --- | --- |"]
    lines += [
        f"| {item.severity.value} | `{item.rule}` | {_cell(item.operation or '—')} "
        f"| {_cell(item.location) or '—'} | {_cell(item.message)} |"
        for item in report.changes
    ]
    return "\n".join([*lines, ""])


def render(report: DiffReport, output_format: str) -> str:
    return render_json(report) if output_format == "json" else render_markdown(report)
