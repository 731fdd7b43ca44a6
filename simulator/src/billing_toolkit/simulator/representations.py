"""Domain objects → the contract's JSON shapes (money as strings, dates as ISO 8601)."""

from __future__ import annotations

import functools
from datetime import UTC, date, datetime
from typing import Any

from billing_toolkit.simulator.state.billing import next_billing_date
from billing_toolkit.simulator.state.invariants import balance_of
from billing_toolkit.simulator.state.models import Account, Customer, Invoice, Payment, Plan
from billing_toolkit.simulator.state.money import to_wire

_REMEMBERED = 4096
"""Texts kept per distinct moment or day: the views of a page repeat the same few."""


@functools.lru_cache(maxsize=_REMEMBERED)
def timestamp(moment: datetime) -> str:
    """RFC 3339 in UTC with a `Z`, second precision (`isoformat` of the naive UTC moment:
    the same text as strftime for years 1000–9999, at a fraction of its cost); a moment
    with another offset is converted to UTC first, a naive one is taken as UTC.

    Remembered per moment: the frozen clock gives every response the same `as_of`, and
    `replace` plus `isoformat` cost more than the rest of a balance's view. Sound because
    equal moments are the same instant, and the same instant has one UTC text."""
    if moment.utcoffset():
        moment = moment.astimezone(UTC)
    return moment.replace(tzinfo=None, microsecond=0).isoformat() + "Z"


@functools.lru_cache(maxsize=_REMEMBERED)
def iso_date(day: date) -> str:
    """`YYYY-MM-DD`, remembered per day: an invoice page repeats the same few dates."""
    return day.isoformat()


def customer_view(customer: Customer) -> dict[str, Any]:
    address = customer.service_address
    return {
        "account_number": customer.account_number,
        "name": customer.name,
        "customer_type": customer.customer_type,
        "national_id": customer.national_id,
        "phone": customer.phone,
        "email": customer.email,
        "status": customer.status,
        "currency": customer.currency,
        "service_address": {
            "line1": address.line1,
            "city": address.city,
            "state": address.state,
            "postal_code": address.postal_code,
        },
        "created_at": timestamp(customer.created_at),
    }


def plan_view(plan: Plan) -> dict[str, Any]:
    return {
        "plan_id": plan.plan_id,
        "name": plan.name,
        "download_mbps": plan.download_mbps,
        "upload_mbps": plan.upload_mbps,
        "monthly_price": to_wire(plan.monthly_price),
        "currency": plan.currency,
    }


def subscription_view(customer: Customer, plan: Plan, now: datetime) -> dict[str, Any]:
    change = customer.pending_change
    cancelled = customer.status == "cancelled"
    return {
        "account_number": customer.account_number,
        "status": customer.status,
        "plan": plan_view(plan),
        "start_date": iso_date(customer.plan_start),
        "billing_day": customer.billing_day,
        "next_billing_date": None
        if cancelled
        else iso_date(next_billing_date(customer.billing_day, now.date())),
        "pending_change": None
        if change is None
        else {"plan_id": change.plan_id, "effective_date": iso_date(change.effective_date)},
    }


def balance_view(account: Account, now: datetime) -> dict[str, Any]:
    figures = balance_of(account)
    return {
        "account_number": account.customer.account_number,
        "currency": account.customer.currency,
        "amount_due": to_wire(figures.amount_due),
        "overdue_amount": to_wire(figures.overdue_amount),
        "credit_balance": to_wire(figures.credit_balance),
        "net_balance": to_wire(figures.net_balance),
        "next_due_date": iso_date(figures.next_due_date) if figures.next_due_date else None,
        "as_of": timestamp(now),
    }


def invoice_view(invoice: Invoice) -> dict[str, Any]:
    return {
        "invoice_number": invoice.invoice_number,
        "account_number": invoice.account_number,
        "status": invoice.status,
        "currency": invoice.currency,
        "billing_period": {
            "start": iso_date(invoice.period_start),
            "end": iso_date(invoice.period_end),
        },
        "issue_date": iso_date(invoice.issue_date),
        "due_date": iso_date(invoice.due_date),
        "line_items": [
            {"kind": line.kind, "description": line.description, "amount": to_wire(line.amount)}
            for line in invoice.line_items
        ],
        "subtotal": to_wire(invoice.subtotal),
        "tax": to_wire(invoice.tax),
        "total": to_wire(invoice.total),
        "amount_paid": to_wire(invoice.amount_paid),
        "amount_due": to_wire(invoice.amount_due),
        "revision": invoice.revision,
    }


def payment_view(payment: Payment) -> dict[str, Any]:
    return {
        "payment_id": payment.payment_id,
        "account_number": payment.account_number,
        "amount": to_wire(payment.amount),
        "currency": payment.currency,
        "method": payment.method,
        "reference": payment.reference,
        "received_at": timestamp(payment.received_at),
        "allocations": [
            {"invoice_number": a.invoice_number, "amount": to_wire(a.amount)}
            for a in payment.allocations
        ],
        "unapplied_amount": to_wire(payment.unapplied_amount),
    }
