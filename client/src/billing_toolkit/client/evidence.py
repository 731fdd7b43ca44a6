"""Evidence text: what the system of record said, in sentences the verifier can cite.

Rules every formatter here follows:
- each figure appears exactly as the API gave it (same digits, same decimals) next to its
  currency (`USD 45.00`) and the identifiers it belongs to (account, invoice, payment);
- dates are ISO (`2026-12-10`), instants RFC 3339 (`2026-11-29T10:00:00Z`);
- a derived figure (a difference, a sum) is computed in code with Decimal and stated as
  such, with words for its direction ("increased by USD 1.92") rather than a sign, so
  that the number in the evidence is the number the narrator will write.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from billing_toolkit.client.bill_change import BillChange, KindTotal
from billing_toolkit.client.models.billing import (
    Balance,
    Customer,
    Invoice,
    InvoicePage,
    Payment,
    PaymentPage,
    Plan,
    Subscription,
)
from billing_toolkit.client.money import money


def instant(value: datetime) -> str:
    """RFC 3339, `Z` for UTC (how the contract's examples write instants)."""
    return value.isoformat().replace("+00:00", "Z")


def day(value: date | None, missing: str = "none") -> str:
    return value.isoformat() if value is not None else missing


def customer_evidence(customer: Customer) -> str:
    return (
        f"Customer account {customer.account_number}: name {customer.name}; "
        f"type {customer.customer_type.value}; national ID {customer.national_id}; "
        f"phone {customer.phone}; status {customer.status.value}; "
        f"billing currency {customer.currency.value}; "
        f"account opened {instant(customer.created_at)}."
    )


def figures(currency: str, *named: tuple[str, Decimal]) -> str:
    """`label USD 1.00; label USD 2.00`: each amount as the API gave it, after its label."""
    return "; ".join(f"{label} {money(currency, amount)}" for label, amount in named)


def balance_evidence(balance: Balance) -> str:
    due = (
        f"next due date {day(balance.next_due_date)}"
        if balance.next_due_date
        else "no open invoice is due"
    )
    amounts = figures(
        balance.currency.value,
        ("amount due", balance.amount_due),
        ("overdue", balance.overdue_amount),
        ("credit", balance.credit_balance),
        ("net balance", balance.net_balance),
    )
    head = f"Balance of account {balance.account_number} as of {instant(balance.as_of)}"
    return f"{head}: {amounts}; {due}."


def invoice_summary(invoice: Invoice) -> str:
    """One invoice in one sentence: identity, status, dates and amounts."""
    period = invoice.billing_period
    amounts = figures(
        invoice.currency.value,
        ("total", invoice.total),
        ("paid", invoice.amount_paid),
        ("amount due", invoice.amount_due),
    )
    return (
        f"Invoice {invoice.invoice_number} of account {invoice.account_number}: "
        f"status {invoice.status.value}; period {day(period.start)} to {day(period.end)}; "
        f"issued {day(invoice.issue_date)}; due {day(invoice.due_date)}; {amounts}."
    )


def invoice_evidence(invoice: Invoice) -> str:
    """The summary plus every line item and the totals, as printed on the invoice."""
    cur = invoice.currency.value
    lines = "; ".join(
        f'{line.kind.value} "{line.description}" {money(cur, line.amount)}'
        for line in invoice.line_items
    )
    totals = figures(
        cur, ("Subtotal", invoice.subtotal), ("tax", invoice.tax), ("total", invoice.total)
    )
    return f"{invoice_summary(invoice)} Line items: {lines}. {totals}; revision {invoice.revision}."


def invoices_evidence(account_number: str, page: InvoicePage, status: str | None) -> str:
    which = f"{status} invoices" if status else "invoices"
    if not page.data:
        return f"Account {account_number} has no {which}."
    items = [invoice_summary(i) for i in page.data]
    return _listing(items, which, account_number, more=page.next_cursor is not None)


def _listing(items: list[str], which: str, account_number: str, *, more: bool) -> str:
    """A page of records, newest first, saying whether it is all of them."""
    rest = "more exist" if more else "that is all of them"
    head = (
        f"The {len(items)} most recent {which} of account {account_number} (newest first; {rest}):"
    )
    return " ".join([head, *items])


def payment_evidence(payment: Payment, lead: str = "Last payment") -> str:
    """One payment as the verifier reads it; `lead` says which ("Last payment", "Payment")."""
    cur = payment.currency.value
    reference = f" (reference {payment.reference})" if payment.reference else ""
    applied = (
        "; ".join(f"{money(cur, a.amount)} to {a.invoice_number}" for a in payment.allocations)
        or "nothing to an invoice"
    )
    return (
        f"{lead} of account {payment.account_number}: {payment.payment_id} of "
        f"{money(cur, payment.amount)} by {payment.method.value}{reference}, received "
        f"{instant(payment.received_at)}; applied {applied}; "
        f"unapplied (kept as credit) {money(cur, payment.unapplied_amount)}."
    )


def payments_evidence(account_number: str, page: PaymentPage) -> str:
    """The most recent payments, newest first, each stated as `payment_evidence` states one."""
    if not page.data:
        return f"Account {account_number} has no payments on record."
    items = [payment_evidence(p, "Payment") for p in page.data]
    return _listing(items, "payments", account_number, more=page.next_cursor is not None)


def plan_description(plan: Plan) -> str:
    return (
        f'{plan.plan_id} "{plan.name}" ({plan.download_mbps}/{plan.upload_mbps} Mbps, '
        f"{money(plan.currency.value, plan.monthly_price)} per month)"
    )


def plan_evidence(subscription: Subscription, pending_plan: Plan | None) -> str:
    text = (
        f"Account {subscription.account_number} is on plan "
        f"{plan_description(subscription.plan)} since {day(subscription.start_date)}; "
        f"subscription status {subscription.status.value}; billing day "
        f"{subscription.billing_day}; next billing date "
        f"{day(subscription.next_billing_date)}."
    )
    change = subscription.pending_change
    if change is None:
        return text + " No plan change is scheduled."
    target = plan_description(pending_plan) if pending_plan else change.plan_id
    return text + f" Scheduled plan change to {target} on {day(change.effective_date)}."


def _direction(difference: Decimal, currency: str) -> str:
    if difference > 0:
        return f"increased by {money(currency, difference)}"
    if difference < 0:
        return f"decreased by {money(currency, -difference)}"
    return "did not change"


def _kind_total(total: KindTotal, currency: str) -> str:
    described = ", ".join(f'"{d}"' for d in total.descriptions)
    summed = " (sum of its lines)" if len(total.descriptions) > 1 else ""
    return f"{total.kind.value} {described} {money(currency, total.amount)}{summed}"


def bill_change_evidence(change: BillChange) -> str:
    latest, previous = change.latest, change.previous
    head = (
        f"Comparing invoice {latest.invoice_number} (issued {day(latest.issue_date)}, total "
        f"{money(latest.currency.value, latest.total)}) with the previous invoice "
        f"{previous.invoice_number} (issued {day(previous.issue_date)}, total "
        f"{money(previous.currency.value, previous.total)}) of account {latest.account_number}:"
    )
    difference = change.total_difference
    if difference is None:
        return head + " they are in different currencies, so no difference is computed."
    cur = latest.currency.value
    parts = [f"the total {_direction(difference, cur)} (computed)"]
    parts += [f"new line {_kind_total(t, cur)}" for t in change.appeared]
    parts += [f"line no longer billed {_kind_total(t, cur)}" for t in change.disappeared]
    parts += [
        f"{c.kind.value} went from {money(cur, c.previous)} to {money(cur, c.latest)}, "
        f"{_direction(c.difference, cur)} (computed)"
        for c in change.changed
    ]
    parts += [f"{t.kind.value} unchanged at {money(cur, t.amount)}" for t in change.unchanged]
    return f"{head} {'; '.join(parts)}."
