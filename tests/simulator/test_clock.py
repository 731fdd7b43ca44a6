"""The business test clock: crossing dates applies the billing rules, exactly once."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest

from billing_toolkit.simulator.state import engine
from billing_toolkit.simulator.state.dataset import generate
from billing_toolkit.simulator.state.invariants import balance_of, state_problems
from billing_toolkit.simulator.state.models import Account, BillingState


@pytest.fixture
def world() -> BillingState:
    return generate(42, 16)


def _account(state: BillingState, number: str) -> Account:
    return state.accounts["fibranet"][number]


def test_crossing_a_billing_day_issues_one_invoice_per_active_account(world: BillingState) -> None:
    account = next(a for a in world.accounts["fibranet"].values() if a.customer.status == "active")
    before = len(account.invoices)
    engine.advance(world, world.now + timedelta(days=31))
    issued = account.invoices[before:]
    assert len(issued) == 1
    assert issued[0].issue_date.day == account.customer.billing_day
    assert issued[0].due_date - issued[0].issue_date == timedelta(days=15)
    assert state_problems(world) == []


def test_crossing_the_due_date_marks_overdue_and_adds_the_late_fee_once(
    world: BillingState,
) -> None:
    account = next(
        a
        for a in world.accounts["fibranet"].values()
        if any(i.status == "open" for i in a.invoices)
    )
    invoice = next(i for i in account.invoices if i.status == "open")
    due = invoice.amount_due
    engine.advance(
        world,
        world.now.replace(hour=0) + (invoice.due_date - world.now.date()) + timedelta(hours=12),
    )
    assert invoice.status == "open"  # the due date itself is still on time
    engine.advance(world, world.now + timedelta(days=1))
    assert invoice.status == "overdue" and invoice.revision == 2
    fee = [line.amount for line in invoice.line_items if line.kind == "late_fee"]
    assert fee == [(due * Decimal("0.05")).quantize(Decimal("0.01"))]
    engine.advance(world, world.now + timedelta(days=5))
    assert [line.kind for line in invoice.line_items].count("late_fee") == 1


def test_unpaid_for_ten_days_after_due_suspends_and_payment_reconnects_with_a_fee(
    world: BillingState,
) -> None:
    account = next(
        a
        for a in world.accounts["fibranet"].values()
        if a.customer.status == "active" and any(i.status == "open" for i in a.invoices)
    )
    invoice = next(i for i in account.invoices if i.status == "open")
    engine.advance(
        world,
        world.now.replace(hour=0) + (invoice.due_date - world.now.date()) + timedelta(days=10),
    )
    assert account.customer.status == "suspended"
    owed = balance_of(account).amount_due
    engine.record_payment(world, account, owed, "pago_movil", "000111222333", world.now)
    assert account.customer.status == "active"
    next_invoice_day = world.now + timedelta(days=31)
    engine.advance(world, next_invoice_day)
    reconnection = [
        line for i in account.invoices for line in i.line_items if line.kind == "reconnection"
    ]
    assert reconnection and reconnection[-1].amount == Decimal("5.00")
    assert state_problems(world) == []


def test_credit_pays_the_next_invoice(world: BillingState) -> None:
    account = next(
        a
        for a in world.accounts["fibranet"].values()
        if a.customer.status == "active" and a.customer.currency == "USD"
    )
    owed = balance_of(account).amount_due
    engine.record_payment(
        world, account, owed + Decimal("100.00"), "zelle", "ABCD123456", world.now
    )
    assert account.customer.credit_balance == Decimal("100.00")
    engine.advance(world, world.now + timedelta(days=31))
    newest = account.invoices[-1]
    assert (
        newest.status == "paid"
        and account.credit_applications[-1].invoice_number == newest.invoice_number
    )
    assert account.customer.credit_balance == Decimal("100.00") - newest.total
    assert state_problems(world) == []


def test_the_clock_never_goes_back(world: BillingState) -> None:
    with pytest.raises(ValueError, match="only moves forward"):
        engine.advance(world, world.now - timedelta(seconds=1))
