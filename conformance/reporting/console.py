"""Rich output: a live progress line while the run goes, one table row per check at the end."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Self

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from billing_toolkit.conformance.outcome import CheckOutcome, Status
from billing_toolkit.conformance.reporting import reproduction
from billing_toolkit.conformance.runner import RunReport

STYLES = {Status.PASSED: "green", Status.FAILED: "bold red", Status.SKIPPED: "yellow"}


class ConsoleProgress:
    """Shows the current stage with a spinner and prints each verdict as it lands."""

    def __init__(self, console: Console) -> None:
        self._console = console
        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            TextColumn("[dim]{task.fields[note]}"),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        )
        self._task = self._progress.add_task("starting", note="")
        self._ticks = 0

    def __enter__(self) -> Self:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def stage(self, title: str) -> None:
        self._ticks = 0
        self._progress.update(self._task, description=title, note="")

    def tick(self, note: str) -> None:
        self._ticks += 1
        self._progress.update(self._task, note=f"{self._ticks} · {note}")

    def finished(self, outcome: CheckOutcome) -> None:
        style = STYLES[outcome.status]
        self._console.print(f"[{style}]{outcome.status.value:>7}[/] {outcome.name}")


def print_summary(console: Console, report: RunReport, secrets: Mapping[str, str]) -> None:
    """The table of every check, then the curl of each failure, then the one-line verdict."""
    table = Table(title=f"Billing contract conformance — {report.base_url}", show_lines=False)
    table.add_column("check", no_wrap=True)
    table.add_column("result", no_wrap=True)
    table.add_column("inspected", justify="right")
    table.add_column("detail", overflow="fold")
    for outcome in report.outcomes:
        style = STYLES[outcome.status]
        table.add_row(
            outcome.name,
            f"[{style}]{outcome.status.value}[/]",
            str(outcome.inspected),
            outcome.summary,
        )
    console.print(table)
    for outcome in report.outcomes:
        if outcome.status is not Status.FAILED:
            continue
        console.print(f"\n[bold red]{outcome.name}[/] — {outcome.summary}")
        if outcome.remedy:
            console.print(f"  [dim]fix:[/] {outcome.remedy}")
        curl = reproduction(outcome, secrets)
        if curl:
            console.print("  [dim]reproduce:[/]")
            console.print(f"  {curl}", soft_wrap=True, markup=False, highlight=False)
    writes = (
        "writes allowed (--allow-writes)"
        if report.allow_writes
        else "read-only (no --allow-writes)"
    )
    if report.schemathesis_phases:
        console.print(f"\nschemathesis phases run: {', '.join(report.schemathesis_phases)}")
    console.print(
        f"\n{report.count(Status.PASSED)} passed, {report.count(Status.FAILED)} failed, "
        f"{report.count(Status.SKIPPED)} skipped · {report.requests} requests · {writes} · "
        f"seed {report.seed}"
    )
