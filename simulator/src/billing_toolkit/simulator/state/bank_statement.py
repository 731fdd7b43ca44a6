"""The seeded bank statement of each tenant: what its bank says it received.

Payment reports are verified against it. Like the rate series it is a pure function of the
seed, the tenant and the dataset's start day, so it needs no storage and a test can read
the same entries the simulator verifies against (`statement`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from billing_toolkit.simulator.state.exchange_rates import is_business_day

ENTRIES = 40
DAYS_BACK = 30
BANKS = ("0102", "0105", "0108", "0134", "0172", "0191")
"""Banco de Venezuela, Mercantil, Provincial, Banesco, Bancamiga, BNC."""


@dataclass(frozen=True, slots=True)
class StatementEntry:
    """One credit on the operator's account: Pago Móvil and transfers in VES, Zelle in USD."""

    reference: str
    bank: str | None
    amount: Decimal
    currency: str
    method: str
    payment_date: date


def _entry(rng: random.Random, start: date) -> StatementEntry:
    payment_date = start - timedelta(days=rng.randrange(DAYS_BACK))
    method = rng.choice(("pago_movil", "pago_movil", "bank_transfer", "zelle"))
    if method == "zelle":
        cents_paid, currency, bank = rng.randrange(1000, 9000), "USD", None
        reference = f"Z{rng.randrange(10**9):09d}"
    else:
        cents_paid, currency, bank = rng.randrange(50_000, 800_000), "VES", rng.choice(BANKS)
        reference = (
            f"{rng.randrange(10**7):07d}"
            if method == "pago_movil"
            else f"{rng.randrange(10**12):012d}"
        )
    return StatementEntry(
        reference, bank, Decimal(cents_paid).scaleb(-2), currency, method, payment_date
    )


def statement(seed: int, tenant_id: str, start: date) -> tuple[StatementEntry, ...]:
    """The tenant's statement for the month before `start`, newest first; references are
    unique within it."""
    rng = random.Random(f"statement|{seed}|{tenant_id}")
    entries: dict[str, StatementEntry] = {}
    while len(entries) < ENTRIES:
        entry = _entry(rng, start)
        if is_business_day(entry.payment_date) or entry.method != "bank_transfer":
            entries.setdefault(entry.reference, entry)
    return tuple(
        sorted(entries.values(), key=lambda e: (e.payment_date, e.reference), reverse=True)
    )
