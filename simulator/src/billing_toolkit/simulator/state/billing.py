"""The operator's billing policy as pure functions (no state, no clock, no I/O).

These are the rules the knowledge base states to subscribers; the engine applies them as
the test clock crosses dates. When the policy is ambiguous the functions choose what a
subscriber can check on the printed invoice: whole cents, rounding half up, one line per
charge.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from billing_toolkit.simulator.state.models import TAXED_KINDS, Invoice, LineItem, Plan
from billing_toolkit.simulator.state.money import ZERO, cents, total

DUE_AFTER_DAYS = 15
SUSPEND_AFTER_DUE_DAYS = 10
IVA_RATE = Decimal("0.16")
LATE_FEE_RATE = Decimal("0.05")

ONE_OFF_FEES: dict[str, dict[str, Decimal]] = {
    "USD": {
        "installation": Decimal("30.00"),
        "equipment": Decimal("45.00"),
        "reconnection": Decimal("5.00"),
    },
    "VES": {
        "installation": Decimal("1500.00"),
        "equipment": Decimal("2250.00"),
        "reconnection": Decimal("250.00"),
    },
}
ONE_OFF_DESCRIPTIONS = {
    "installation": "Instalación del servicio",
    "equipment": "Equipo ONT (pago único)",
    "reconnection": "Reconexión del servicio",
}


def next_billing_date(billing_day: int, after: date) -> date:
    """The first date strictly after `after` whose day of month is `billing_day` (1–28)."""
    candidate = after.replace(day=billing_day)
    if candidate > after:
        return candidate
    year, month = (after.year + 1, 1) if after.month == 12 else (after.year, after.month + 1)
    return date(year, month, billing_day)


def billing_period(issue_date: date, billing_day: int) -> tuple[date, date]:
    """[billing day, day before the next billing day], both inclusive."""
    return issue_date, next_billing_date(billing_day, issue_date) - timedelta(days=1)


def due_date_for(issue_date: date) -> date:
    return issue_date + timedelta(days=DUE_AFTER_DAYS)


def suspension_date_for(due_date: date) -> date:
    """Service is cut this many days after the due date if the invoice is still unpaid."""
    return due_date + timedelta(days=SUSPEND_AFTER_DUE_DAYS)


def plan_line(plan: Plan, start: date, end: date) -> LineItem:
    period = f"{start:%d/%m/%Y} - {end:%d/%m/%Y}"
    return LineItem("plan_charge", f"{plan.name} ({period})", plan.monthly_price)


def proration_amount(
    old_price: Decimal, new_price: Decimal, requested_on: date, period: tuple[date, date]
) -> Decimal | None:
    """Price difference for the days left in the period after an upgrade, None otherwise.

    The faster service starts at once, the new price at the next billing day; the days in
    between are billed at the difference. A downgrade refunds nothing (bias: never invent
    money the subscriber did not pay).
    """
    if new_price <= old_price:
        return None
    start, end = period
    days_in_period = (end - start).days + 1
    days_left = (end - requested_on).days + 1
    if days_left <= 0:
        return None
    return cents((new_price - old_price) * days_left / days_in_period)


def proration_line(old: Plan, new: Plan, amount: Decimal) -> LineItem:
    return LineItem("proration", f"Prorrateo cambio de plan {old.name} a {new.name}", amount)


def one_off_line(kind: str, currency: str) -> LineItem:
    return LineItem(kind, ONE_OFF_DESCRIPTIONS[kind], ONE_OFF_FEES[currency][kind])


def discount_line(description: str, percent: Decimal, base: Decimal) -> LineItem:
    return LineItem("discount", description, -cents(base * percent / 100))


def with_tax(lines: list[LineItem]) -> list[LineItem]:
    """The lines plus one `IVA 16%` line over the taxable ones (always present, maybe 0.00)."""
    taxable = total(line.amount for line in lines if line.kind in TAXED_KINDS)
    return [*lines, LineItem("tax", "IVA 16%", cents(taxable * IVA_RATE))]


def late_fee_line(invoice: Invoice) -> LineItem:
    """5% of what is still due at the due date; added once, not taxed."""
    return LineItem("late_fee", "Recargo por mora 5%", cents(invoice.amount_due * LATE_FEE_RATE))


def allocate(
    open_invoices: list[Invoice], amount: Decimal
) -> tuple[list[tuple[Invoice, Decimal]], Decimal]:
    """Split a payment over invoices already sorted oldest first; the rest is credit."""
    remaining = amount
    allocations: list[tuple[Invoice, Decimal]] = []
    for invoice in open_invoices:
        if remaining <= ZERO:
            break
        applied = min(remaining, invoice.amount_due)
        if applied > ZERO:
            allocations.append((invoice, applied))
            remaining -= applied
    return allocations, remaining
