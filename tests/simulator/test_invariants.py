"""The invariant checks catch what they claim to catch."""

from __future__ import annotations

from decimal import Decimal

import pytest

from billing_toolkit.simulator.state.dataset import generate
from billing_toolkit.simulator.state.invariants import (
    InvariantViolation,
    check_account,
    state_problems,
)


def test_a_payment_counted_twice_is_caught() -> None:
    state = generate(1, 12)
    account = next(
        a for a in state.accounts["fibranet"].values() if a.payments and a.payments[-1].allocations
    )
    allocation = account.payments[-1].allocations[0]
    account.payments[-1].allocations.append(allocation)
    with pytest.raises(InvariantViolation, match="allocations"):
        check_account(account)


def test_an_invoice_whose_payments_do_not_add_up_is_caught() -> None:
    state = generate(1, 12)
    account = next(a for a in state.accounts["llanolink"].values() if a.invoices)
    account.invoices[0].amount_paid += Decimal("0.01")
    assert any("amount paid" in problem for problem in state_problems(state))


def test_credit_out_of_step_with_the_ledger_is_caught() -> None:
    state = generate(1, 12)
    account = next(iter(state.accounts["fibranet"].values()))
    account.customer.credit_balance += Decimal("1.00")
    assert any("credit" in problem for problem in state_problems(state))
