"""Figures a subscriber asks for that the billing API does not state but its data implies:
days left to pay, days overdue, how much of what is overdue is late fees.

Computed here, in code, from the record's own dates and amounts (never by a narrator), and
stated in the evidence with the words "computed", the way the bill-change deltas are: so the
verifier can back "te quedan 11 días" with a figure the evidence holds, and a narrator that
writes 12 is stopped. Days count from the billing system's `as_of` date (its today, not the
server's), so the reply agrees with the record it quotes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from billing_toolkit.client.models.billing import Balance, Invoice, InvoiceStatus, LineItemKind
from billing_toolkit.client.money import format_amount, money


def days_between(as_of: datetime, day: date) -> int:
    """Calendar days from `as_of`'s date to `day` (negative when `day` is past)."""
    return (day - as_of.date()).days


def days_until_due(balance: Balance) -> int | None:
    """Days from the balance's `as_of` to its next due date; None when nothing is due."""
    if balance.next_due_date is None:
        return None
    return days_between(balance.as_of, balance.next_due_date)


def due_evidence(balance: Balance) -> str:
    """The computed days-left sentence for a balance's evidence ("" when nothing is due)."""
    days = days_until_due(balance)
    if days is None:
        return ""
    if days < 0:
        return f" The next due date {balance.next_due_date} passed {-days} days ago (computed)."
    return (
        f" {days} days until the next due date {balance.next_due_date} (computed from "
        f"as of {balance.as_of.date().isoformat()})."
    )


@dataclass(frozen=True, slots=True)
class Arrears:
    """What is overdue on an account, as of the balance's date."""

    balance: Balance
    overdue: tuple[Invoice, ...]
    """The overdue invoices, oldest due date first."""

    @property
    def late_fees(self) -> Decimal:
        """The late-fee lines billed on the overdue invoices, summed."""
        return sum(
            (
                line.amount
                for invoice in self.overdue
                for line in invoice.line_items
                if line.kind is LineItemKind.LATE_FEE
            ),
            Decimal(0),
        )

    @property
    def days_overdue(self) -> int | None:
        """Days since the oldest overdue invoice fell due; None with nothing overdue."""
        if not self.overdue:
            return None
        return -days_between(self.balance.as_of, self.overdue[0].due_date)


def arrears_of(balance: Balance, invoices: Sequence[Invoice]) -> Arrears:
    """The overdue ones of `invoices` (any order), oldest due date first."""
    overdue = sorted(
        (i for i in invoices if i.status is InvoiceStatus.OVERDUE),
        key=lambda i: (i.due_date, i.invoice_number),
    )
    return Arrears(balance, tuple(overdue))


def arrears_data(arrears: Arrears) -> dict[str, object]:
    """The `arrears` capability's data: the balance's figures and the computed ones."""
    balance = arrears.balance
    return {
        "account_number": balance.account_number,
        "currency": balance.currency.value,
        "overdue_amount": format_amount(balance.overdue_amount),
        "late_fees": format_amount(arrears.late_fees),
        "days_overdue": arrears.days_overdue,
        "oldest_due_date": arrears.overdue[0].due_date.isoformat() if arrears.overdue else None,
        "overdue_invoices": [i.invoice_number for i in arrears.overdue],
        "as_of": balance.as_of.date().isoformat(),
    }


def arrears_evidence(arrears: Arrears) -> str:
    balance = arrears.balance
    cur = balance.currency.value
    head = (
        f"Arrears of account {balance.account_number} as of {balance.as_of.date().isoformat()}: "
        f"overdue {money(cur, balance.overdue_amount)}"
    )
    if not arrears.overdue:
        return head + "; no invoice is overdue."
    numbers = ", ".join(i.invoice_number for i in arrears.overdue)
    return (
        f"{head}; overdue invoices {numbers}; late fees billed on them "
        f"{money(cur, arrears.late_fees)} (computed, sum of their late_fee lines); the oldest "
        f"fell due {arrears.overdue[0].due_date.isoformat()}, {arrears.days_overdue} days ago "
        "(computed)."
    )
