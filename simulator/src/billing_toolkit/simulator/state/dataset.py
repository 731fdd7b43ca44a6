"""Deterministic dataset: two operators, hundreds of Venezuelan customers, months of history.

The history is not drawn invoice by invoice: customers with a payment behaviour are run
through the billing engine day by day, so every invoice, late fee, suspension, credit and
reconnection in the data follows the same rules the test clock applies later, and the
invariants hold by construction. Randomness comes only from RNGs seeded with `seed` (string
seeds are hashed with SHA-512 by `random`, so they do not depend on PYTHONHASHSEED): the same
seed gives byte-identical data.

Each customer draws from RNGs of its own, seeded from (seed, tenant, index): its identity,
plan, behaviour and so its invoices, payments and balance depend on the seed and its own
index, not on how many customers the dataset has — account 1000004821 owes the same in the
pytest fixture's 20-customer dataset as in `serve`'s 300. Customers are made index by index
across tenants, so the uniqueness of phones and IDs is settled against lower indices only.
What is numbered in sequence across a tenant (invoice numbers, payment ids) is chronological
for the whole population, so those numbers do depend on its size.

The first customers of each tenant are cast in fixed roles (open invoice, overdue and
suspended, credit, cancelled, business, bolívares, late payer, pending upgrade, new
installation) so tests and `dataset_info` find every case even in a small dataset.
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Annotated

from faker import Faker
from pydantic import Field

from billing_toolkit.simulator.numbers import Settings, read
from billing_toolkit.simulator.state import engine
from billing_toolkit.simulator.state.billing import next_billing_date
from billing_toolkit.simulator.state.identifiers import (
    cedula,
    mobile_phone,
    one_digit_apart,
    rif,
    transposed,
)
from billing_toolkit.simulator.state.models import (
    Account,
    Address,
    BillingState,
    Customer,
    Discount,
    NearDuplicate,
    Sequences,
    Tenant,
)
from billing_toolkit.simulator.state.money import ZERO, cents
from billing_toolkit.simulator.state.report_verification import VERIFICATION_DELAY
from billing_toolkit.simulator.state.seeded_reports import seed_reports
from billing_toolkit.simulator.state.tenants import TENANT_SPECS, TenantSpec, build_tenant
from billing_toolkit.simulator.state.venezuela import (
    AVENUES,
    BUILDINGS,
    BUSINESS_PATTERNS,
    EMAIL_DOMAINS,
    MOBILE_PREFIXES,
    SAINTS,
    STREETS,
    TRADES,
    URBANIZATIONS,
)

DEFAULT_NOW = datetime(2026, 11, 10, 13, 0, tzinfo=UTC)
"""Business time when a fresh dataset starts (the test clock moves it forward)."""
HISTORY_DAYS = 250
"""Days of history before `DEFAULT_NOW`: a little over eight months of invoices."""
MIN_CUSTOMERS = 12
MAX_CUSTOMERS = 5000
"""Customers per tenant at most (the admin contract's bound): generation is linear in it."""
DEFAULT_CUSTOMERS = 300
MAX_SEED = 2**53 - 1
"""Largest seed: every JSON reader keeps it exact (the admin contract's bound)."""


class DatasetSize(Settings):
    """What a dataset is built from, besides its start time."""

    seed: Annotated[int, Field(ge=0, le=MAX_SEED)]
    customers_per_tenant: Annotated[int, Field(ge=MIN_CUSTOMERS, le=MAX_CUSTOMERS)]


CONTRACT_EXAMPLE = {
    "account_number": "1000004821",
    "name": "María Fernanda Rodríguez",
    "national_id": "V-12345678",
    "phone": "+584121234567",
    "email": "mfrodriguez@example.com",
}
"""The customer of the contract's examples: fibranet's open-invoice customer takes this
identity, so the examples in `openapi.yaml` (and conformance runs that replay them) reach
real data instead of a 404."""

ROLES = (
    "open_invoice",
    "overdue",
    "credit",
    "cancelled",
    "business",
    "ves",
    "late_payer",
    "pending_upgrade",
    "new_installation",
)
"""Fixed roles of the first customers of each tenant, in order."""

BEHAVIOURS = (
    ("punctual", 55),
    ("pays_at_due", 10),
    ("late", 12),
    ("overpayer", 6),
    ("partial", 5),
    ("defaulter", 6),
    ("quitter", 3),
    ("defaulter_cancelled", 3),
)


@dataclass(slots=True)
class Profile:
    """How one generated customer behaves over the history."""

    behaviour: str
    role: str | None = None
    start: date | None = None
    """Activation date for customers who joined during the history (None: before it)."""
    stop_paying_on: date | None = None
    cancel_on: date | None = None
    upgrade_on: date | None = None
    upgrade_to: str | None = None


@dataclass(slots=True)
class _Schedule:
    """Payments and events planned for future days of the history walk."""

    payments: dict[date, list[tuple[str, str]]] = field(default_factory=dict)
    """day → (account_number, kind of payment)."""

    def pay(self, day: date, account_number: str, kind: str) -> None:
        self.payments.setdefault(day, []).append((account_number, kind))


class _TenantGenerator:
    """Generates one tenant's customers and walks its history."""

    def __init__(
        self, spec: TenantSpec, tenant: Tenant, seed: int, count: int, now: datetime, used: set[str]
    ):
        self.spec, self.tenant, self.count, self.now, self.seed = spec, tenant, count, now, seed
        self.rng = random.Random()
        """The RNG of the customer being made (reseeded per customer by `add_customer`)."""
        self.history_rngs: dict[str, random.Random] = {}
        """account number → the RNG of that customer's payments over the history."""
        self.fake = Faker("es_ES")
        self.numbers: set[int] = set()
        self.used = used
        self.used.update((CONTRACT_EXAMPLE["phone"], CONTRACT_EXAMPLE["national_id"]))
        self.first_day = now.date() - timedelta(days=HISTORY_DAYS)
        self.customers: list[tuple[Customer, Profile]] = []
        self.profiles: dict[str, Profile] = {}
        self.by_billing_day: dict[int, list[Customer]] = {}
        self.joining: dict[date, list[Customer]] = {}
        self.events: dict[date, list[tuple[Customer, Profile]]] = {}
        self.schedule = _Schedule()

    # --- customers -------------------------------------------------------------------------

    def add_customer(self, index: int) -> None:
        """Customer `index`, from RNGs of its own: (seed, tenant, index) decides it."""
        key = f"billing-sim:{self.seed}:{self.spec.tenant_id}:{index}"
        self.rng.seed(key)
        self.fake.seed_instance(key)
        suffix = self.rng.randrange(100_000, 99_999_999)
        while suffix in self.numbers:
            suffix = self.rng.randrange(100_000, 99_999_999)
        self.numbers.add(suffix)
        role = ROLES[index] if index < len(ROLES) else None
        customer, profile = self._customer(f"{self.spec.account_prefix}{suffix:08d}", role)
        self.customers.append((customer, profile))
        self.profiles[customer.account_number] = profile
        self.history_rngs[customer.account_number] = random.Random(f"{key}:history")

    def _customer(self, account_number: str, role: str | None) -> tuple[Customer, Profile]:
        rng = self.rng
        profile = self._profile(role)
        business = role == "business" or (role is None and rng.random() < 0.15)
        currency = (
            "VES"
            if role == "ves" or (role is None and rng.random() < self.spec.ves_share)
            else "USD"
        )
        if role in ("business", "pending_upgrade", "open_invoice", "credit", "overdue"):
            currency = "USD"
        plans = [plan for plan in self.tenant.plans if plan.currency == currency]
        plan = (
            min(plans, key=lambda p: p.monthly_price)
            if role == "pending_upgrade"
            else rng.choice(plans)
        )
        place = rng.choice(self.spec.places)
        name, national_id = self._business_identity() if business else self._person_identity()
        if profile.start is not None:
            created = datetime.combine(
                profile.start, time(rng.randint(12, 21), rng.randint(0, 59)), UTC
            )
            billing_day, plan_start = profile.start.day, profile.start
        else:
            created = datetime.combine(
                self.first_day - timedelta(days=rng.randint(60, 1500)),
                time(rng.randint(12, 21), rng.randint(0, 59), rng.randint(0, 59)),
                UTC,
            )
            billing_day = self._billing_day(role)
            plan_start = created.date() + timedelta(days=rng.randint(0, 50))
        customer = Customer(
            account_number=account_number,
            tenant_id=self.tenant.tenant_id,
            name=name,
            customer_type="business" if business else "individual",
            national_id=national_id,
            phone=self._unique(
                lambda: mobile_phone(rng.choice(MOBILE_PREFIXES), rng.randint(1_000_000, 9_999_999))
            ),
            email=None if rng.random() < 0.15 else self._email(name),
            status="active",
            currency=currency,
            service_address=self._address(place),
            created_at=created,
            plan_id=plan.plan_id,
            plan_start=plan_start,
            billing_day=billing_day,
            discount=self._discount(profile),
            one_off_charges=["installation", "equipment"] if profile.start is not None else [],
        )
        if role == "open_invoice" and self.spec.tenant_id == "fibranet":
            for name, value in CONTRACT_EXAMPLE.items():
                setattr(customer, name, value)
            customer.service_address = Address(
                "Av. Francisco de Miranda, Edif. Parque Cristal, Piso 4, Apto 4-B",
                "Caracas",
                "Miranda",
                "1060",
            )
        if profile.behaviour == "quitter" and profile.cancel_on is not None:
            profile.cancel_on = next_billing_date(billing_day, profile.cancel_on)
        if profile.upgrade_on is not None:
            better = [p for p in plans if p.monthly_price > plan.monthly_price]
            profile.upgrade_to = better[0].plan_id if better else None
        return customer, profile

    def _billing_day(self, role: str | None) -> int:
        if role == "open_invoice":
            return max(1, min(28, (self.now.date() - timedelta(days=4)).day))
        if role == "pending_upgrade":
            return max(1, min(28, (self.now.date() - timedelta(days=9)).day))
        if role == "credit":
            return max(1, min(28, (self.now.date() - timedelta(days=12)).day))
        return self.rng.randint(1, 28)

    def _profile(self, role: str | None) -> Profile:
        rng, today = self.rng, self.now.date()
        fixed = {
            "open_invoice": "pays_at_due",
            "overdue": "defaulter",
            "credit": "overpayer",
            "cancelled": "quitter",
            "late_payer": "late",
        }
        if role is not None:
            behaviour = fixed.get(role, "punctual")
        else:
            names, weights = zip(*BEHAVIOURS, strict=True)
            behaviour = rng.choices(names, weights)[0]
        profile = Profile(behaviour=behaviour, role=role)
        joins = role == "new_installation" or (role is None and rng.random() < 0.2)
        if joins:
            start = self.first_day + timedelta(days=rng.randint(10, HISTORY_DAYS - 60))
            profile.start = start.replace(day=min(start.day, 28))
        if behaviour in ("defaulter", "defaulter_cancelled"):
            profile.stop_paying_on = today - timedelta(days=70 if role else rng.randint(45, 150))
        if behaviour == "defaulter_cancelled":
            profile.cancel_on = today - timedelta(days=rng.randint(5, 20))
        if behaviour == "quitter":
            profile.cancel_on = today - timedelta(days=rng.randint(30, 100))
        if role == "pending_upgrade":
            profile.upgrade_on = today - timedelta(days=3)
        elif role is None and behaviour == "punctual" and rng.random() < 0.12:
            profile.upgrade_on = today - timedelta(days=rng.randint(20, HISTORY_DAYS - 40))
        return profile

    def _person_identity(self) -> tuple[str, str]:
        fake, rng = self.fake, self.rng
        given = (
            fake.first_name() if rng.random() < 0.6 else f"{fake.first_name()} {fake.first_name()}"
        )
        name = f"{given} {fake.last_name()} {fake.last_name()}"
        foreign = rng.random() < 0.05
        national_id = self._unique(
            lambda: (
                cedula("E", rng.randint(81_000_000, 84_999_999))
                if foreign
                else cedula("V", rng.randint(3_000_000, 32_000_000))
            )
        )
        return name, national_id

    def _business_identity(self) -> tuple[str, str]:
        fake, rng = self.fake, self.rng
        name = rng.choice(BUSINESS_PATTERNS).format(
            surname=fake.last_name(),
            surname2=fake.last_name(),
            saint=rng.choice(SAINTS),
            trade=rng.choice(TRADES),
        )
        national_id = self._unique(
            lambda: rif("J" if rng.random() < 0.9 else "G", rng.randint(10_000_000, 50_999_999))
        )
        return name, national_id

    def _unique(self, make) -> str:  # type: ignore[no-untyped-def]
        while True:
            value = make()
            if value not in self.used:
                self.used.add(value)
                return value

    def _email(self, name: str) -> str:
        plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
        words = [w for w in plain.replace(",", "").replace(".", "").split() if w.isalpha()]
        local = (
            f"{words[0][0]}{words[-2] if len(words) > 2 else words[-1]}{self.rng.randint(1, 99)}"
        )
        return f"{local}@{self.rng.choice(EMAIL_DOMAINS)}"

    def _address(self, place) -> Address:  # type: ignore[no-untyped-def]
        rng = self.rng
        style = rng.randrange(3)
        if style == 0:
            line1 = f"{rng.choice(AVENUES)}, {rng.choice(BUILDINGS)}, Piso {rng.randint(1, 15)}, Apto {rng.randint(1, 15)}-{rng.choice('ABCD')}"
        elif style == 1:
            line1 = (
                f"{rng.choice(STREETS)} con {rng.choice(STREETS)}, Casa Nro. {rng.randint(1, 120)}"
            )
        else:
            line1 = (
                f"{rng.choice(URBANIZATIONS)}, {rng.choice(STREETS)}, Qta. {self.fake.first_name()}"
            )
        return Address(
            line1, place.city, place.state, place.postal_code if rng.random() < 0.85 else None
        )

    def _discount(self, profile: Profile) -> Discount | None:
        if profile.start is not None and self.rng.random() < 0.3:
            return Discount("Descuento promoción de bienvenida 10%", Decimal(10), 3)
        if profile.start is None and self.rng.random() < 0.06:
            return Discount("Descuento por fidelidad 5%", Decimal(5), 6)
        return None

    # --- history ---------------------------------------------------------------------------

    def index_events(self, watchlist: engine.Watchlist) -> None:
        """Who can be billed on each day of the month, and the dated events of each day."""
        for customer, profile in self.customers:
            self.by_billing_day.setdefault(customer.billing_day, []).append(customer)
            watchlist.bill_on(self.tenant.tenant_id, customer.billing_day, customer.account_number)
            self.joining.setdefault(profile.start or self.first_day, []).append(customer)
            for day in (profile.upgrade_on, profile.cancel_on):
                if day is not None:
                    self.events.setdefault(day, []).append((customer, profile))

    def activate(self, state: BillingState, day: date) -> None:
        accounts = state.accounts[self.tenant.tenant_id]
        for customer in self.joining.pop(day, []):
            accounts[customer.account_number] = Account(customer)

    def after_day(self, state: BillingState, day: date) -> None:
        """Plan payments for invoices issued today, then make today's payments and events."""
        accounts = state.accounts[self.tenant.tenant_id]
        for customer in self.by_billing_day.get(day.day, []):
            account = accounts.get(customer.account_number)
            if account is not None and account.invoices and account.invoices[-1].issue_date == day:
                self._plan_payment(
                    self.profiles[customer.account_number], customer.account_number, day
                )
        for customer, profile in self.events.pop(day, []):
            account = accounts.get(customer.account_number)
            if account is None:
                continue
            if profile.upgrade_on == day and profile.upgrade_to and customer.status == "active":
                engine.schedule_plan_change(self.tenant, account, profile.upgrade_to, day)
            if profile.cancel_on == day and customer.status != "cancelled":
                engine.cancel(account, day)
        for account_number, kind in self.schedule.payments.pop(day, []):
            self._pay(state, accounts[account_number], kind, day)

    def _plan_payment(self, profile: Profile, account_number: str, issued: date) -> None:
        rng = self.history_rngs[account_number]
        if profile.stop_paying_on is not None and issued >= profile.stop_paying_on:
            return
        offsets = {
            "punctual": (0, 10),
            "quitter": (0, 10),
            "pays_at_due": (11, 15),
            "late": (17, 28),
            "overpayer": (0, 8),
            "partial": (5, 14),
            "defaulter": (0, 12),
            "defaulter_cancelled": (0, 12),
        }
        low, high = offsets[profile.behaviour]
        kind = {"overpayer": "round_up", "partial": "partial"}.get(profile.behaviour, "full")
        self.schedule.pay(issued + timedelta(days=rng.randint(low, high)), account_number, kind)

    def _pay(self, state: BillingState, account: Account, kind: str, day: date) -> None:
        rng = self.history_rngs[account.customer.account_number]
        received = datetime.combine(
            day, time(rng.randint(11, 23), rng.randint(0, 59), rng.randint(0, 59)), UTC
        )
        owed = sum((invoice.amount_due for invoice in account.open_invoices()), ZERO)
        if received > self.now or owed <= ZERO:
            return
        amount = _payment_amount(kind, owed, account.customer.currency, rng)
        method, reference = _method_and_reference(account.customer.currency, rng)
        engine.record_payment(state, account, amount, method, reference, received)


def _payment_amount(kind: str, owed: Decimal, currency: str, rng: random.Random) -> Decimal:
    if kind == "partial":
        return cents(owed * Decimal(rng.randint(40, 80)) / 100)
    if kind == "round_up":
        step = Decimal(10) if currency == "USD" else Decimal(500)
        return cents((owed // step + 1) * step)
    return owed


def _method_and_reference(currency: str, rng: random.Random) -> tuple[str, str | None]:
    methods = ["pago_movil", "bank_transfer", "cash", "card"] + (
        ["zelle"] if currency == "USD" else []
    )
    method = rng.choice(methods)
    if method == "cash":
        return method, None
    if method == "zelle":
        return method, "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(10))
    digits = {"pago_movil": 12, "bank_transfer": 10, "card": 6}[method]
    return method, "".join(rng.choice("0123456789") for _ in range(digits))


def _plant_near_duplicates(state: BillingState, tenant_id: str, anchor_sequence: int) -> None:
    """Reserve a transposition and a one-digit twin of an early invoice number."""
    sequences = state.sequences[tenant_id]
    candidates = [anchor_sequence + step for step in range(40)]
    anchor = next(n for n in candidates if transposed(n) is not None)
    twin_t, twin_d = transposed(anchor), one_digit_apart(anchor)
    assert twin_t is not None
    sequences.reserved_invoices.extend(sorted({anchor, twin_t, twin_d}))
    state.near_duplicates[tenant_id] = [
        NearDuplicate("transposition", str(anchor), str(twin_t)),
        NearDuplicate("one_digit", str(anchor), str(twin_d)),
    ]


def _resolve_near_duplicates(state: BillingState) -> None:
    """Replace planted sequences by the full numbers issued; drop pairs not issued yet."""
    for tenant_id, pairs in state.near_duplicates.items():
        by_sequence = {
            int(invoice.invoice_number[-6:]): invoice.invoice_number
            for account in state.accounts[tenant_id].values()
            for invoice in account.invoices
        }
        state.near_duplicates[tenant_id] = [
            NearDuplicate(pair.kind, by_sequence[int(pair.first)], by_sequence[int(pair.second)])
            for pair in pairs
            if int(pair.first) in by_sequence and int(pair.second) in by_sequence
        ]


def generate(
    seed: int = 42, customers_per_tenant: int = DEFAULT_CUSTOMERS, now: datetime = DEFAULT_NOW
) -> BillingState:
    """Build the dataset for `seed`: same arguments, same state, same bytes; `ValueError`
    (`SettingsRefused`) naming a seed or a size out of range."""
    read(DatasetSize, {"seed": seed, "customers_per_tenant": customers_per_tenant})
    used: set[str] = set()
    generators = []
    for spec in TENANT_SPECS:
        tenant = build_tenant(spec, seed)
        generators.append(_TenantGenerator(spec, tenant, seed, customers_per_tenant, now, used))
    for index in range(customers_per_tenant):
        for generator in generators:
            generator.add_customer(index)
    watchlist = engine.Watchlist()
    for generator in generators:
        generator.index_events(watchlist)
    first_day = now.date() - timedelta(days=HISTORY_DAYS)
    state = BillingState(
        seed=seed,
        customers_per_tenant=customers_per_tenant,
        now=datetime.combine(first_day - timedelta(days=1), time(0), UTC),
        tenants=[generator.tenant for generator in generators],
        accounts={generator.tenant.tenant_id: {} for generator in generators},
        sequences={
            spec.tenant_id: Sequences(spec.first_invoice_sequence, spec.first_payment_sequence)
            for spec in TENANT_SPECS
        },
        near_duplicates={},
    )
    for spec in TENANT_SPECS:
        _plant_near_duplicates(state, spec.tenant_id, spec.first_invoice_sequence + 18)
    day = first_day
    while day <= now.date():
        for generator in generators:
            generator.activate(state, day)
        engine.process_day(state, day, watchlist)
        for generator in generators:
            generator.after_day(state, day)
        day += timedelta(days=1)
    state.now = now
    _resolve_near_duplicates(state)
    seed_reports(state, VERIFICATION_DELAY)
    return state
