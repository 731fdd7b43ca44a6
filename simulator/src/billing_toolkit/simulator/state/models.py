"""The simulated billing world as plain dataclasses.

One `Account` aggregate holds a customer with everything that belongs to it (invoices,
payments, credit applications), so a write touches one aggregate and persistence can save
just the aggregates a write made dirty. Derived figures (subtotal, tax, total, amount due)
are properties computed from line items, so they cannot drift from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from billing_toolkit.simulator.state.money import ZERO, cents

TAXED_KINDS = frozenset(
    {"plan_charge", "proration", "installation", "equipment", "reconnection", "discount"}
)
"""Line kinds IVA applies to at issue. `late_fee` is added later and is not taxed."""


@dataclass(slots=True)
class Plan:
    plan_id: str
    name: str
    download_mbps: int
    upload_mbps: int
    monthly_price: Decimal
    currency: str


@dataclass(slots=True)
class Tenant:
    tenant_id: str
    name: str
    api_key: str
    account_prefix: str
    plans: list[Plan]

    def plan(self, plan_id: str) -> Plan:
        for plan in self.plans:
            if plan.plan_id == plan_id:
                return plan
        raise KeyError(plan_id)


@dataclass(slots=True)
class Address:
    line1: str
    city: str
    state: str
    postal_code: str | None


@dataclass(slots=True)
class Discount:
    """A percentage off the plan charge for a number of invoices (a promotion)."""

    description: str
    percent: Decimal
    invoices_left: int


@dataclass(slots=True)
class PendingChange:
    """A plan change that takes effect on `effective_date` (the next billing day).

    `proration` is the charge for the upgraded days of the current period, billed on the
    next invoice; None for a downgrade (no refund of the days already billed).
    """

    plan_id: str
    effective_date: date
    requested_on: date
    proration: Decimal | None


@dataclass(slots=True)
class Customer:
    account_number: str
    tenant_id: str
    name: str
    customer_type: str
    national_id: str
    phone: str
    email: str | None
    status: str
    currency: str
    service_address: Address
    created_at: datetime
    plan_id: str
    plan_start: date
    billing_day: int
    pending_change: PendingChange | None = None
    discount: Discount | None = None
    credit_balance: Decimal = ZERO
    one_off_charges: list[str] = field(default_factory=list)
    """Kinds (`installation`, `equipment`, `reconnection`) to bill on the next invoice."""


OPEN_STATUSES = frozenset({"open", "overdue"})
"""Invoice statuses that count in the balance and receive payments."""


@dataclass(slots=True)
class LineItem:
    kind: str
    description: str
    amount: Decimal


@dataclass(slots=True)
class Invoice:
    invoice_number: str
    account_number: str
    tenant_id: str
    status: str
    currency: str
    period_start: date
    period_end: date
    issue_date: date
    due_date: date
    line_items: list[LineItem]
    amount_paid: Decimal = ZERO
    revision: int = 1

    def _sums(self) -> tuple[Decimal, Decimal]:
        """(subtotal, tax) in one walk of the lines: the balance of every request needs
        them, so each figure is not summed on its own."""
        subtotal = tax = ZERO
        for line in self.line_items:
            if line.kind == "tax":
                tax += line.amount
            else:
                subtotal += line.amount
        return cents(subtotal), cents(tax)

    @property
    def subtotal(self) -> Decimal:
        return self._sums()[0]

    @property
    def tax(self) -> Decimal:
        return self._sums()[1]

    @property
    def total(self) -> Decimal:
        subtotal, tax = self._sums()
        return subtotal + tax

    @property
    def amount_due(self) -> Decimal:
        return self.total - self.amount_paid

    @property
    def is_open(self) -> bool:
        """Open or overdue: counts in the balance and receives payments."""
        return self.status in OPEN_STATUSES


@dataclass(slots=True)
class Allocation:
    invoice_number: str
    amount: Decimal


@dataclass(slots=True)
class Payment:
    payment_id: str
    account_number: str
    amount: Decimal
    currency: str
    method: str
    reference: str | None
    received_at: datetime
    allocations: list[Allocation]
    unapplied_amount: Decimal


@dataclass(slots=True)
class CreditApplication:
    """Credit (an earlier payment's unapplied part) used to pay an invoice at its issue."""

    invoice_number: str
    amount: Decimal
    applied_on: date


PENDING = "pending_verification"


@dataclass(slots=True)
class PaymentReport:
    """A subscriber's report of a payment made outside the API, and its verification.

    It books nothing while `pending_verification`; once verified it names the payment it
    became (`payment_id`, `credited_amount` in the account's currency, and the rate used
    when the reported currency is not the account's); once rejected, why.
    """

    report_id: str
    account_number: str
    method: str
    amount: Decimal
    currency: str
    reference: str
    bank: str | None
    payment_date: date
    payer_phone: str | None
    payer_national_id: str | None
    created_at: datetime
    status: str = PENDING
    resolved_at: datetime | None = None
    rejection_reason: str | None = None
    payment_id: str | None = None
    credited_amount: Decimal | None = None
    exchange_rate: Decimal | None = None


@dataclass(slots=True)
class Account:
    """A customer and everything billed to or paid by it."""

    customer: Customer
    invoices: list[Invoice] = field(default_factory=list)
    payments: list[Payment] = field(default_factory=list)
    credit_applications: list[CreditApplication] = field(default_factory=list)
    payment_reports: list[PaymentReport] = field(default_factory=list)

    def open_invoices(self) -> list[Invoice]:
        """Open and overdue invoices, oldest first (due date, then number): payment order."""
        return sorted(
            (invoice for invoice in self.invoices if invoice.is_open),
            key=lambda invoice: (invoice.due_date, invoice.invoice_number),
        )


@dataclass(slots=True)
class NearDuplicate:
    """Two invoice numbers of one tenant that differ by one transposition or one digit."""

    kind: str
    first: str
    second: str


@dataclass(slots=True)
class Sequences:
    """Per-tenant counters; `reserved` numbers are handed out before the counter passes them."""

    next_invoice: int
    next_payment: int
    reserved_invoices: list[int] = field(default_factory=list)
    next_report: int = 0


@dataclass(slots=True)
class IdempotencyRecord:
    key: str
    fingerprint: str
    status: int
    body: str
    created_at: datetime


@dataclass(slots=True)
class BillingState:
    """Everything the simulator knows; serialisable as one JSON document."""

    seed: int
    customers_per_tenant: int
    now: datetime
    tenants: list[Tenant]
    accounts: dict[str, dict[str, Account]]
    """tenant_id → account_number → Account."""
    sequences: dict[str, Sequences]
    near_duplicates: dict[str, list[NearDuplicate]]
    idempotency: dict[str, dict[str, IdempotencyRecord]] = field(default_factory=dict)
    """tenant_id → key → stored first response."""

    def tenant(self, tenant_id: str) -> Tenant:
        for tenant in self.tenants:
            if tenant.tenant_id == tenant_id:
                return tenant
        raise KeyError(tenant_id)
