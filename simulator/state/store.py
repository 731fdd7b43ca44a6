"""The one place that reads and writes the billing state, under one lock.

Handlers run on the event loop and the in-process control (a test thread, the pytest
plugin) may call in from another thread, so every read and write takes a re-entrant
thread lock. Writes are short and never await, so the lock is never held across I/O the
event loop waits on. After each write the touched accounts' invariants are checked and
the write is persisted before it is acknowledged.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from billing_toolkit.simulator.state import codec, dataset, engine
from billing_toolkit.simulator.state.engine import DayReport
from billing_toolkit.simulator.state.invariants import check_account, check_state
from billing_toolkit.simulator.state.models import (
    Account,
    BillingState,
    IdempotencyRecord,
    Invoice,
    Payment,
    Tenant,
)
from billing_toolkit.simulator.state.money import MAX_AMOUNT, ZERO
from billing_toolkit.simulator.state.persistence import Persistence


class UnknownSnapshot(KeyError):
    """No snapshot has this id."""


@dataclass(frozen=True, slots=True)
class PaymentOutcome:
    """What createPayment answers: a new payment (201), a replay (201), a key conflict
    (409), or a payment the books cannot hold (422: credit past the largest amount)."""

    status: int
    body: str | None
    replayed: bool


class BillingStore:
    def __init__(self, state: BillingState, persistence: Persistence, start: datetime) -> None:
        self._lock = threading.RLock()
        self._persistence = persistence
        self._start = start
        self._install(state)

    # --- reads ---------------------------------------------------------------------------

    @property
    def state(self) -> BillingState:
        return self._state

    @property
    def now(self) -> datetime:
        return self._state.now

    def tenant_for_key(self, api_key: str) -> Tenant | None:
        return self._keys.get(api_key)

    def account(self, tenant_id: str, account_number: str) -> Account | None:
        with self._lock:
            return self._state.accounts[tenant_id].get(account_number)

    def find_account(self, tenant_id: str, field: str, value: str) -> Account | None:
        """Exact match on one identifier (`phone`, `national_id`, `account_number`)."""
        with self._lock:
            if field == "account_number":
                return self._state.accounts[tenant_id].get(value)
            return self._by_identifier.get((tenant_id, field, value))

    def invoice(self, tenant_id: str, invoice_number: str) -> Invoice | None:
        """The invoice with exactly this number in this tenant; another tenant's is None."""
        with self._lock:
            found = self._invoices.get(invoice_number)
            return found if found is not None and found.tenant_id == tenant_id else None

    def read(self, reader: Callable[[BillingState], object]) -> object:
        """Run `reader` on a consistent state (no write interleaves)."""
        with self._lock:
            return reader(self._state)

    # --- writes --------------------------------------------------------------------------

    def pay(
        self,
        tenant_id: str,
        account: Account,
        key: str,
        fingerprint: str,
        payment: tuple[Decimal, str, str | None],
        render: Callable[[Payment], str],
    ) -> PaymentOutcome:
        """Record a payment once per idempotency key (Stripe semantics).

        Check-and-apply happens under the lock, so concurrent requests with the same key
        see either no record (and one of them creates it) or the stored response.
        """
        with self._lock:
            records = self._state.idempotency.setdefault(tenant_id, {})
            existing = records.get(key)
            if existing is not None:
                if existing.fingerprint != fingerprint:
                    return PaymentOutcome(409, None, replayed=False)
                return PaymentOutcome(existing.status, existing.body, replayed=True)
            amount, method, reference = payment
            owed = sum((invoice.amount_due for invoice in account.open_invoices()), ZERO)
            if account.customer.credit_balance + amount - owed > MAX_AMOUNT:
                return PaymentOutcome(422, None, replayed=False)
            made = engine.record_payment(
                self._state, account, amount, method, reference, self._state.now
            )
            check_account(account)
            body = render(made)
            record = IdempotencyRecord(key, fingerprint, 201, body, self._state.now)
            records[key] = record
            self._persistence.save_write(self._state, [account], (tenant_id, record))
            return PaymentOutcome(201, body, replayed=False)

    def advance(self, to: datetime) -> DayReport:
        with self._lock:
            report = engine.advance(self._state, to)
            check_state(self._state)
            self._reindex()
            self._persistence.save_all(self._state)
            return report

    def reset(self, seed: int | None = None, customers_per_tenant: int | None = None) -> None:
        """A fresh dataset (same seed by default); idempotency keys are forgotten."""
        with self._lock:
            state = dataset.generate(
                self._state.seed if seed is None else seed,
                customers_per_tenant or self._state.customers_per_tenant,
                self._start,
            )
            self._install(state)
            self._persistence.save_all(state)

    def snapshot(self, snapshot_id: str | None = None) -> str:
        with self._lock:
            snapshot_id = snapshot_id or f"snap-{uuid.uuid4().hex[:12]}"
            self._persistence.put_snapshot(snapshot_id, codec.dumps(self._state))
            return snapshot_id

    def restore(self, snapshot_id: str) -> None:
        with self._lock:
            document = self._persistence.get_snapshot(snapshot_id)
            if document is None:
                raise UnknownSnapshot(snapshot_id)
            self._install(codec.loads(BillingState, document))
            self._persistence.save_all(self._state)

    def snapshots(self) -> list[dict[str, str]]:
        with self._lock:
            return self._persistence.list_snapshots()

    # --- indexes -------------------------------------------------------------------------

    def _install(self, state: BillingState) -> None:
        self._state = state
        self._keys = {tenant.api_key: tenant for tenant in state.tenants}
        self._by_identifier: dict[tuple[str, str, str], Account] = {}
        for tenant_id, accounts in state.accounts.items():
            for account in accounts.values():
                customer = account.customer
                self._by_identifier[(tenant_id, "phone", customer.phone)] = account
                self._by_identifier[(tenant_id, "national_id", customer.national_id)] = account
        self._reindex()

    def _reindex(self) -> None:
        self._invoices = {
            invoice.invoice_number: invoice
            for accounts in self._state.accounts.values()
            for account in accounts.values()
            for invoice in account.invoices
        }
