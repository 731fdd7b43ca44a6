"""Payment reports read again from outside (issue #27): cases the first reading had not tried.

A QA tester reports a payment and moves the test clock days ahead in one step. The
report must be judged when its verification delay passes, not when the clock stops: a
payment verified only at the end of the step lets the days in between mark its invoice
overdue and charge the late fee the subscriber paid in time to avoid.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.simulator.conftest import Sim, small_config
from tests.simulator.test_payment_reports import entries, of_entry, report, status_of, usd_account


@pytest.fixture
def two() -> Iterator[tuple[Sim, Sim]]:
    """Two simulators of the same seed: one moves its clock in one step, the twin in two."""
    first, twin = Sim(small_config()), Sim(small_config())
    with first.client, twin.client:
        yield first, twin


def books(sim: Sim, account: str) -> tuple[Any, Any, Any]:
    """What the subscriber sees: the balance, the invoices and the payments."""
    return (
        sim.get(f"/v1/customers/{account}/balance").json(),
        sim.get(f"/v1/customers/{account}/invoices?limit=100").json(),
        sim.get(f"/v1/customers/{account}/payments?limit=100").json(),
    )


def test_a_report_is_verified_when_its_delay_passes_even_inside_a_long_clock_step(
    two: tuple[Sim, Sim],
) -> None:
    sim, twin = two
    account = usd_account(sim)
    entry = entries(sim, "zelle")[0]  # USD, more than the open invoice: it pays it whole
    made = report(sim, account, "second-read-0001", **of_entry(entry)).json()
    report(twin, account, "second-read-0001", **of_entry(entry))
    (due,) = sim.get(f"/v1/customers/{account}/invoices?status=open").json()["data"]
    sim.control.clock.advance(days=20)  # past the open invoice's due date
    twin.control.clock.advance(minutes=30)
    twin.control.clock.advance(hours=479.5)
    verified = status_of(sim, made["report_id"])
    assert verified["status"] == "verified"
    assert verified["resolved_at"] == "2026-11-10T13:30:00Z"
    (payment,) = [
        p for p in books(sim, account)[2]["data"] if p["payment_id"] == verified["payment_id"]
    ]
    assert payment["received_at"] == "2026-11-10T13:30:00Z"
    assert books(sim, account) == books(twin, account)
    paid = sim.get(f"/v1/invoices/{due['invoice_number']}").json()
    assert paid["status"] == "paid"
    assert [item["kind"] for item in paid["line_items"]] == [
        item["kind"] for item in due["line_items"]
    ]  # no late fee


def test_a_rejection_inside_a_long_clock_step_is_dated_when_the_delay_passed(sim: Sim) -> None:
    account = usd_account(sim)
    made = report(sim, account, "second-read-0002", reference="99999999").json()
    sim.control.clock.advance(days=3)
    rejected = status_of(sim, made["report_id"])
    assert (rejected["status"], rejected["rejection_reason"]) == (
        "rejected",
        "reference_not_found",
    )
    assert rejected["resolved_at"] == "2026-11-10T13:30:00Z"


def test_a_report_made_after_another_fell_due_is_judged_at_its_own_moment(sim: Sim) -> None:
    account = usd_account(sim)
    first, second = entries(sim, "pago_movil")[:2]
    made_first = report(sim, account, "second-read-0003", **of_entry(first)).json()
    sim.control.clock.advance(minutes=10)
    made_second = report(sim, account, "second-read-0004", **of_entry(second)).json()
    sim.control.clock.advance(days=2)
    assert status_of(sim, made_first["report_id"])["resolved_at"] == "2026-11-10T13:30:00Z"
    assert status_of(sim, made_second["report_id"])["resolved_at"] == "2026-11-10T13:40:00Z"


def test_a_clock_step_shorter_than_the_delay_still_leaves_the_report_pending(sim: Sim) -> None:
    made = report(sim, usd_account(sim), "second-read-0005").json()
    sim.control.clock.advance(minutes=29)
    found = status_of(sim, made["report_id"])
    assert (found["status"], found["resolved_at"]) == ("pending_verification", None)
