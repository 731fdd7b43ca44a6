"""Rich output: a live progress line while the run goes, then every check: a table on a wide
terminal, one line per check otherwise (CI logs have no terminal)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Self

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from billing_toolkit.conformance.outcome import CheckOutcome, Status
from billing_toolkit.conformance.reporting import reproduction
from billing_toolkit.conformance.runner import RunReport
from billing_toolkit.conformance.writes import describe, describe_totals

STYLES = {
    Status.PASSED: "green",
    Status.FAILED: "bold red",
    Status.SKIPPED: "yellow",
    Status.NOT_EXERCISED: "magenta",
}
TABLE_MIN_WIDTH = 120
"""Below this width (or without a terminal: CI logs) the checks are a plain list, since a
table squeezed into 80 columns folds its detail column to a word per line."""
DETAIL_MIN_WIDTH = 40


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
        self._console.print(
            Text.assemble(
                (f"{outcome.status.value:>7}", STYLES[outcome.status]), f" {outcome.name}"
            )
        )


def print_summary(console: Console, report: RunReport, secrets: Mapping[str, str]) -> None:
    """Every check (a table on a wide terminal, else one line each), then the curl of each
    failure, the writes made and the one-line verdict."""
    title = f"Billing contract conformance — {report.base_url}"
    if console.is_terminal and console.width >= TABLE_MIN_WIDTH:
        console.print(_table(report, title))
    else:
        console.print(Text(title, style="bold"), soft_wrap=True)
        for outcome in report.outcomes:
            console.print(_line(outcome), soft_wrap=True)
    for outcome in report.outcomes:
        if outcome.status is not Status.FAILED:
            continue
        console.print()
        console.print(Text.assemble((outcome.name, "bold red"), f" — {outcome.summary}"))
        if outcome.remedy:
            console.print(Text.assemble(("  fix: ", "dim"), outcome.remedy))
        curl = reproduction(outcome, secrets)
        if curl:
            console.print(Text("  reproduce:", style="dim"))
            console.print(Text(f"  {curl}"), soft_wrap=True)
    mode = (
        "writes allowed (--allow-writes)"
        if report.allow_writes
        else "read-only (no --allow-writes)"
    )
    if report.schemathesis_phases:
        console.print(f"\nschemathesis phases run: {', '.join(report.schemathesis_phases)}")
    console.print(Text(f"\nwrites made: {describe_totals(report.writes)}"), soft_wrap=True)
    for write in report.writes:
        console.print(Text(f"  {describe(write)} → {write.status}"), soft_wrap=True)
    console.print(
        Text(
            f"\n{report.count(Status.PASSED)} passed, {report.count(Status.FAILED)} failed, "
            f"{report.count(Status.SKIPPED)} skipped, "
            f"{report.count(Status.NOT_EXERCISED)} not exercised · {report.requests} requests · "
            f"{mode} · "
            f"seed {report.seed}"
        ),
        soft_wrap=True,
    )


def _table(report: RunReport, title: str) -> Table:
    table = Table(title=title, show_lines=False)
    table.add_column("check", no_wrap=True)
    table.add_column("result", no_wrap=True)
    table.add_column("inspected", justify="right", no_wrap=True)
    table.add_column("detail", overflow="fold", min_width=DETAIL_MIN_WIDTH)
    for outcome in report.outcomes:
        table.add_row(
            outcome.name,
            Text(outcome.status.value, style=STYLES[outcome.status]),
            str(outcome.inspected),
            Text(outcome.summary),
        )
    return table


def _line(outcome: CheckOutcome) -> Text:
    """One check on one line (`  failed money (12 inspected): …`): what a CI log without a
    terminal shows, whatever its width, since rich then never wraps it."""
    return Text.assemble(
        (f"{outcome.status.value:>7}", STYLES[outcome.status]),
        f" {outcome.name} ({outcome.inspected} inspected): {outcome.summary}",
    )
