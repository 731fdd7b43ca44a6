"""Applies the billing policy to the state as business time passes and money arrives.

The same engine builds the dataset's history and serves the test clock, so an invoice the
clock issues is made exactly like one in the generated history. Days are processed in
order, all tenants and accounts in account-number order within a day, so invoice numbers
are chronological and the outcome never depends on dict order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal

from billing_toolkit.simulator.state import billing
from billing_toolkit.simulator.state.identifiers import invoice_number, payment_id
from billing_toolkit.simulator.state.models import (
    Account,
    Allocation,
    BillingState,
    CreditApplication,
    Invoice,
    Payment,
    PendingChange,
    Sequences,
    Tenant,
)
from billing_toolkit.simulator.state.money import MAX_AMOUNT, ZERO


@dataclass(slots=True)
class DayReport:
    """What crossing into new days did (the admin clock endpoint returns it)."""

    days: int = 0
    invoices_issued: int = 0
    invoices_overdue: int = 0
    accounts_suspended: int = 0

    def add(self, other: DayReport) -> None:
        self.days += other.days
        self.invoices_issued += other.invoices_issued
        self.invoices_overdue += other.invoices_overdue
        self.accounts_suspended += other.accounts_suspended


def _stride(sequence: int) -> int:
    """Gap to the next sequence (1–3): real numbering has gaps (voided drafts, other series)."""
    return 1 + (sequence * 2654435761 >> 7) % 3


def next_invoice_number(sequences: Sequences, year: int) -> str:
    """Next sequence; a reserved number is handed out as soon as the counter reaches it."""
    reached = [number for number in sequences.reserved_invoices if number <= sequences.next_invoice]
    if reached:
        number = min(reached)
        sequences.reserved_invoices.remove(number)
    else:
        number = sequences.next_invoice
    if number == sequences.next_invoice:
        sequences.next_invoice += _stride(number)
    return invoice_number(year, number)


def next_payment_id(sequences: Sequences) -> str:
    sequences.next_payment += 1
    return payment_id(sequences.next_payment)


def issue_invoice(state: BillingState, tenant: Tenant, account: Account, day: date) -> Invoice:
    """Issue the invoice of the period starting `day`; plan change and extras take effect."""
    customer = account.customer
    change = customer.pending_change
    lines = []
    if change is not None and change.effective_date <= day:
        old_plan, new_plan = tenant.plan(customer.plan_id), tenant.plan(change.plan_id)
        customer.plan_id, customer.plan_start, customer.pending_change = new_plan.plan_id, day, None
        if change.proration is not None:
            lines.append(billing.proration_line(old_plan, new_plan, change.proration))
    plan = tenant.plan(customer.plan_id)
    start, end = billing.billing_period(day, customer.billing_day)
    lines.insert(0, billing.plan_line(plan, start, end))
    lines.extend(billing.one_off_line(kind, customer.currency) for kind in customer.one_off_charges)
    customer.one_off_charges = []
    if customer.discount is not None:
        discount = customer.discount
        lines.append(
            billing.discount_line(discount.description, discount.percent, plan.monthly_price)
        )
        discount.invoices_left -= 1
        if discount.invoices_left <= 0:
            customer.discount = None
    invoice = Invoice(
        invoice_number=next_invoice_number(state.sequences[tenant.tenant_id], day.year),
        account_number=customer.account_number,
        tenant_id=tenant.tenant_id,
        status="open",
        currency=customer.currency,
        period_start=start,
        period_end=end,
        issue_date=day,
        due_date=billing.due_date_for(day),
        line_items=billing.with_tax(lines),
    )
    account.invoices.append(invoice)
    _apply_credit(account, invoice, day)
    return invoice


def _apply_credit(account: Account, invoice: Invoice, day: date) -> None:
    """Credit left by earlier payments pays the new invoice first."""
    customer = account.customer
    applied = min(customer.credit_balance, invoice.amount_due)
    if applied <= ZERO:
        return
    customer.credit_balance -= applied
    invoice.amount_paid += applied
    account.credit_applications.append(CreditApplication(invoice.invoice_number, applied, day))
    if invoice.amount_due == ZERO:
        invoice.status = "paid"


_LOOK_BACK = timedelta(days=billing.DUE_AFTER_DAYS + billing.SUSPEND_AFTER_DUE_DAYS + 1)
"""How far back an invoice can still turn overdue or trigger a suspension on a given day."""
_UNSETTLED = frozenset({"open", "overdue"})


def _unsettled_recent(account: Account, horizon: date) -> list[Invoice]:
    """Open or overdue invoices issued on or after `horizon` (`day - _LOOK_BACK`): the only
    ones that can turn overdue or trigger a suspension on that day.

    Days are processed one by one, so anything older already had its turn; looking back
    only this far keeps a day's work proportional to the accounts, not to their history, and
    skipping settled invoices keeps it to the few that can change (a day's pass over every
    account is most of generating the dataset's history).
    """
    unsettled = []
    for invoice in reversed(account.invoices):
        if invoice.issue_date < horizon:
            break
        if invoice.status in _UNSETTLED:
            unsettled.append(invoice)
    return unsettled


def _mark_overdue(invoices: list[Invoice], day: date) -> int:
    """Open invoices past their due date become overdue and get the late fee, once."""
    count = 0
    for invoice in invoices:
        if invoice.status == "open" and invoice.due_date < day:
            invoice.line_items.append(billing.late_fee_line(invoice))
            invoice.status = "overdue"
            invoice.revision += 1
            count += 1
    return count


def _maybe_suspend(account: Account, invoices: list[Invoice], day: date) -> bool:
    customer = account.customer
    if customer.status != "active":
        return False
    if any(
        invoice.status == "overdue" and billing.suspension_date_for(invoice.due_date) <= day
        for invoice in invoices
    ):
        customer.status = "suspended"
        return True
    return False


@dataclass(slots=True)
class Watchlist:
    """Per tenant, the only accounts each day of generated history can change, so a walk over
    months of history does not visit every account every day (that visit was most of
    generating a dataset).

    A day changes an account only on its billing day (an invoice), on the day after an
    invoice's due date (overdue, the late fee) and on its suspension date (the cut), and an
    invoice never goes back to open: so the accounts billed on a day of the month, plus those
    `watch` woke up for that date, are every account the day can change (some it woke find
    their invoice paid meanwhile: nothing to do). Only for a walk that owns every change to
    the state, like `dataset.generate`; the clock serves a state the API changes, and visits
    every account.
    """

    billing_days: dict[str, dict[int, list[str]]] = field(default_factory=dict)
    """tenant_id → day of the month → account numbers billed on it (active or not yet)."""
    wake_ups: dict[str, dict[date, set[str]]] = field(default_factory=dict)
    """tenant_id → date → account numbers with an invoice that may turn on that date."""

    def bill_on(self, tenant_id: str, billing_day: int, account_number: str) -> None:
        self.billing_days.setdefault(tenant_id, {}).setdefault(billing_day, []).append(
            account_number
        )

    def watch(self, tenant_id: str, invoice: Invoice) -> None:
        """Wake the invoice's account when it would turn overdue and when it would be cut."""
        calendar = self.wake_ups.setdefault(tenant_id, {})
        for day in (
            invoice.due_date + timedelta(days=1),
            billing.suspension_date_for(invoice.due_date),
        ):
            calendar.setdefault(day, set()).add(invoice.account_number)

    def candidates(self, tenant_id: str, day: date) -> list[str]:
        """The accounts `day` can change, in account-number order (the order of the clock)."""
        billed = self.billing_days.get(tenant_id, {}).get(day.day, ())
        return sorted(self.wake_ups.get(tenant_id, {}).pop(day, set()).union(billed))


def _process_account(
    state: BillingState, tenant: Tenant, account: Account, day: date, report: DayReport
) -> Invoice | None:
    """One account's 00:00 of `day`; the invoice it issued, if any."""
    recent = _unsettled_recent(account, day - _LOOK_BACK)
    if recent:
        report.invoices_overdue += _mark_overdue(recent, day)
        report.accounts_suspended += _maybe_suspend(account, recent, day)
    customer = account.customer
    if customer.status == "cancelled" or customer.billing_day != day.day:
        return None
    report.invoices_issued += 1
    return issue_invoice(state, tenant, account, day)


def process_day(state: BillingState, day: date, watchlist: Watchlist | None = None) -> DayReport:
    """Everything that happens at 00:00 of `day`: overdue, suspensions, new invoices.

    With a `watchlist`, only its candidates are visited (the others have nothing to do
    that day), in the same order, so the outcome is the same as visiting every account."""
    report = DayReport(days=1)
    for tenant in state.tenants:
        accounts = state.accounts[tenant.tenant_id]
        if watchlist is None:
            for number in sorted(accounts):
                _process_account(state, tenant, accounts[number], day, report)
            continue
        for number in watchlist.candidates(tenant.tenant_id, day):
            account = accounts.get(number)
            issued = (
                None if account is None else _process_account(state, tenant, account, day, report)
            )
            if issued is not None:
                watchlist.watch(tenant.tenant_id, issued)
    return report


def advance(state: BillingState, to: datetime) -> DayReport:
    """Move business time forward to `to`, processing every day boundary crossed."""
    if to < state.now:
        raise ValueError("the clock only moves forward; restore a snapshot or reset to go back")
    report = DayReport()
    day = state.now.date() + timedelta(days=1)
    while day <= to.date():
        report.add(process_day(state, day))
        day += timedelta(days=1)
    state.now = to
    return report


def record_payment(
    state: BillingState,
    account: Account,
    amount: Decimal,
    method: str,
    reference: str | None,
    received_at: datetime,
) -> Payment:
    """Apply a payment oldest invoice first; the rest becomes credit. Money moves once."""
    customer = account.customer
    allocations, unapplied = billing.allocate(account.open_invoices(), amount)
    for invoice, applied in allocations:
        invoice.amount_paid += applied
        if invoice.amount_due == ZERO:
            invoice.status = "paid"
    customer.credit_balance += unapplied
    payment = Payment(
        payment_id=next_payment_id(state.sequences[customer.tenant_id]),
        account_number=customer.account_number,
        amount=amount,
        currency=customer.currency,
        method=method,
        reference=reference,
        received_at=received_at,
        allocations=[
            Allocation(invoice.invoice_number, applied) for invoice, applied in allocations
        ],
        unapplied_amount=unapplied,
    )
    account.payments.append(payment)
    if customer.status == "suspended" and not any(i.status == "overdue" for i in account.invoices):
        customer.status = "active"
        customer.one_off_charges.append("reconnection")
    return payment


def credit_overflows(account: Account, amount: Decimal) -> bool:
    """Whether paying `amount` would leave more credit than the largest amount the API can
    represent: `createPayment` refuses it (422), a payment report's verification rejects it."""
    owed = sum((invoice.amount_due for invoice in account.open_invoices()), ZERO)
    return account.customer.credit_balance + amount - owed > MAX_AMOUNT


def schedule_plan_change(
    tenant: Tenant, account: Account, plan_id: str, requested_on: date
) -> None:
    """Plan change at the next billing day, with proration when it is an upgrade."""
    customer = account.customer
    effective = billing.next_billing_date(customer.billing_day, requested_on)
    period = billing.billing_period(
        _period_start(customer.billing_day, requested_on), customer.billing_day
    )
    proration = billing.proration_amount(
        tenant.plan(customer.plan_id).monthly_price,
        tenant.plan(plan_id).monthly_price,
        requested_on,
        period,
    )
    customer.pending_change = PendingChange(plan_id, effective, requested_on, proration)


def _period_start(billing_day: int, on: date) -> date:
    """The billing day that opened the period containing `on`."""
    if on.day >= billing_day:
        return on.replace(day=billing_day)
    first = on.replace(day=1) - timedelta(days=1)
    return first.replace(day=billing_day)


def cancel(account: Account, on: date) -> None:
    """The contract ends: no more invoices, no pending change. Debts stay owed.

    An invoice issued that same day for the period that will not be served is voided,
    unless something was already paid on it (then it stands and is settled as usual).
    """
    account.customer.status = "cancelled"
    account.customer.pending_change = None
    for invoice in account.invoices:
        if invoice.issue_date == on and invoice.status == "open" and invoice.amount_paid == ZERO:
            invoice.status = "void"
