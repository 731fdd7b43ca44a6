"""The money invariants, checked by the tests and (per touched account) after every write.

An invariant that fails is a simulator bug, never a subscriber's problem: the store raises
`InvariantViolation` and the write is not acknowledged. Each check returns every problem
it finds, so a failing test names all the broken figures at once.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from decimal import Decimal
from typing import NamedTuple

from billing_toolkit.simulator.state.models import OPEN_STATUSES, Account, BillingState
from billing_toolkit.simulator.state.money import ZERO, cents, total


class InvariantViolation(AssertionError):
    """The state broke a money invariant."""


class BalanceFigures(NamedTuple):
    """A customer's balance, computed one way for the API and for the invariants (a
    NamedTuple: one is built per balance request, cheaper than a frozen dataclass)."""

    amount_due: Decimal
    overdue_amount: Decimal
    credit_balance: Decimal
    net_balance: Decimal
    next_due_date: date | None


def balance_of(account: Account) -> BalanceFigures:
    """Open and overdue invoices minus credit. `next_due_date` is the earliest due date of
    the invoices still `open` (not yet overdue): the next date the subscriber must meet."""
    amount_due = overdue = ZERO
    upcoming: date | None = None
    for invoice in account.invoices:  # one walk: every balance request runs this
        if invoice.status not in OPEN_STATUSES:  # `is_open`, without a call per invoice
            continue
        due = invoice.amount_due
        amount_due += due
        if invoice.status == "overdue":
            overdue += due
        elif upcoming is None or invoice.due_date < upcoming:
            upcoming = invoice.due_date
    amount_due, overdue = cents(amount_due), cents(overdue)
    credit = account.customer.credit_balance
    return BalanceFigures(amount_due, overdue, credit, amount_due - credit, upcoming)


def account_problems(account: Account) -> list[str]:
    """Every broken invariant of one account, as readable sentences."""
    customer = account.customer
    problems: list[str] = []
    paid_in: dict[str, Decimal] = defaultdict(lambda: ZERO)
    for payment in account.payments:
        allocated = total(allocation.amount for allocation in payment.allocations)
        if payment.amount <= ZERO:
            problems.append(f"{payment.payment_id}: amount {payment.amount} is not positive")
        if allocated + payment.unapplied_amount != payment.amount:
            problems.append(
                f"{payment.payment_id}: allocations {allocated} + unapplied {payment.unapplied_amount}"
                f" != amount {payment.amount}"
            )
        if payment.currency != customer.currency:
            problems.append(
                f"{payment.payment_id}: currency {payment.currency} != {customer.currency}"
            )
        for allocation in payment.allocations:
            paid_in[allocation.invoice_number] += allocation.amount
    for application in account.credit_applications:
        paid_in[application.invoice_number] += application.amount
    for invoice in account.invoices:
        problems.extend(_invoice_problems(invoice, paid_in[invoice.invoice_number]))
    credit = total(p.unapplied_amount for p in account.payments) - total(
        a.amount for a in account.credit_applications
    )
    if credit != customer.credit_balance or credit < ZERO:
        problems.append(
            f"{customer.account_number}: credit {customer.credit_balance} != ledger {credit}"
        )
    figures = balance_of(account)
    if figures.net_balance != figures.amount_due - figures.credit_balance:
        problems.append(f"{customer.account_number}: net balance does not add up")
    return problems


def _invoice_problems(invoice, paid_in: Decimal) -> list[str]:  # type: ignore[no-untyped-def]
    number = invoice.invoice_number
    problems = []
    lines = invoice.line_items
    if invoice.subtotal != total(line.amount for line in lines if line.kind != "tax"):
        problems.append(f"{number}: subtotal does not add up")
    if invoice.total != invoice.subtotal + invoice.tax:
        problems.append(f"{number}: total != subtotal + tax")
    if invoice.amount_paid != paid_in:
        problems.append(
            f"{number}: amount paid {invoice.amount_paid} != payments and credit {paid_in}"
        )
    if invoice.amount_due < ZERO:
        problems.append(f"{number}: amount due {invoice.amount_due} is negative")
    if invoice.status == "paid" and invoice.amount_due != ZERO:
        problems.append(f"{number}: paid with {invoice.amount_due} still due")
    if invoice.is_open and invoice.amount_due == ZERO:
        problems.append(f"{number}: {invoice.status} with nothing due")
    if sum(1 for line in lines if line.kind == "late_fee") > (1 if invoice.status != "open" else 0):
        problems.append(f"{number}: late fee applied more than once or before the due date")
    return problems


def state_problems(state: BillingState) -> list[str]:
    """Every broken invariant of the whole state, including cross-account ones."""
    problems: list[str] = []
    seen: dict[str, str] = {}
    for tenant_id, accounts in state.accounts.items():
        for account in accounts.values():
            problems.extend(account_problems(account))
            for invoice in account.invoices:
                if invoice.invoice_number in seen:
                    problems.append(f"{invoice.invoice_number}: issued twice")
                seen[invoice.invoice_number] = tenant_id
    return problems


def check_account(account: Account) -> None:
    problems = account_problems(account)
    if problems:
        raise InvariantViolation("; ".join(problems))


def check_state(state: BillingState) -> None:
    problems = state_problems(state)
    if problems:
        raise InvariantViolation("; ".join(problems[:20]))
