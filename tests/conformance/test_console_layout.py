"""The summary stays readable in a CI log: no terminal, 80 columns, one line per check."""

from __future__ import annotations

import io
from decimal import Decimal

from rich.console import Console

from billing_toolkit.conformance.outcome import CheckOutcome, Status, Violation
from billing_toolkit.conformance.reporting.console import print_summary
from billing_toolkit.conformance.runner import RunReport
from billing_toolkit.conformance.writes import Write

LONG = (
    "GET /v1/invoices/INV-2026-004218 → 200: asked for INV-2026-004281 and got another "
    "invoice [a near miss], which a fuzzy lookup returns instead of a 404"
)
OUTCOMES = (
    CheckOutcome("problem_json", Status.PASSED, "every error response is problem+json", 41),
    CheckOutcome(
        "exact_lookup", Status.FAILED, LONG, 6, (Violation(LONG),), "Look up by equality."
    ),
    CheckOutcome("tenancy", Status.SKIPPED, "needs --other-tenant-key (another tenant's key)"),
    CheckOutcome(
        "schemathesis.response_schema_conformance", Status.PASSED, "112 checks passed", 112
    ),
)
REPORT = RunReport(
    base_url="https://billing-staging.example.com",
    allow_writes=True,
    other_tenant=False,
    seed=0,
    run_id="r1",
    outcomes=OUTCOMES,
    requests=180,
    writes=(Write("createPayment", "10******21", Decimal("1.00"), "USD", 201),),
)


def printed(**console: object) -> str:
    out = io.StringIO()
    print_summary(Console(file=out, **console), REPORT, {})  # type: ignore[arg-type]
    return out.getvalue()


def test_without_a_terminal_every_check_is_one_line_at_width_80() -> None:
    lines = printed(width=80, force_terminal=False).splitlines()
    for outcome in OUTCOMES:
        line = next(line for line in lines if f" {outcome.name} (" in line)
        assert outcome.status.value in line and outcome.summary in line


def test_a_narrow_terminal_gets_the_list_too() -> None:
    text = printed(width=80, force_terminal=True, color_system=None)
    assert f"failed exact_lookup (6 inspected): {LONG}" in text


def test_a_wide_terminal_gets_the_table() -> None:
    text = printed(width=160, force_terminal=True, color_system=None)
    assert "┃ check" in text and "schemathesis.response_schema_conformance" in text


def test_the_summary_states_the_writes_and_their_total() -> None:
    text = printed(width=80, force_terminal=False)
    assert "writes made: 1 write (total USD 1.00)" in text
    assert "createPayment 10******21 USD 1.00 → 201" in text
