"""The one place that reads and writes the billing state, under one lock.

Handlers run on the event loop and the in-process control (a test thread, the pytest
plugin) may call in from another thread, so every read and write takes a re-entrant
thread lock. Writes are short and never await, so the lock is never held across I/O the
event loop waits on. After each write the touched accounts' invariants are checked and
the write is persisted before it is acknowledged.
"""

from __future__ import annotations

import copy
import dataclasses
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal

from billing_toolkit.simulator.state import codec, dataset, engine, report_verification
from billing_toolkit.simulator.state.engine import DayReport
from billing_toolkit.simulator.state.identifiers import report_id
from billing_toolkit.simulator.state.invariants import check_account, check_state
from billing_toolkit.simulator.state.models import (
    Account,
    BillingState,
    IdempotencyRecord,
    Invoice,
    Payment,
    PaymentReport,
    Tenant,
)
from billing_toolkit.simulator.state.persistence import Persistence, Write
from billing_toolkit.simulator.state.report_verification import VERIFICATION_DELAY, Forced
from billing_toolkit.simulator.validation.messages import FieldError

ACCOUNT_FIELDS = tuple(f.name for f in dataclasses.fields(Account))


class UnknownSnapshot(KeyError):
    """No snapshot has this id."""


@dataclass(frozen=True, slots=True)
class PaymentOutcome:
    """What createPayment answers: a new payment (201), a replay (201), a key conflict
    (409), or a payment the books cannot hold (422: credit past the largest amount)."""

    status: int
    body: str | None
    replayed: bool
    error: FieldError | None = None
    """Why a 422 refused the payment."""


@dataclass(frozen=True, slots=True)
class NewReport:
    """What createPaymentReport records (everything but the id, the clock and the status)."""

    method: str
    amount: Decimal
    currency: str
    reference: str
    bank: str | None
    payment_date: date
    payer_phone: str | None
    payer_national_id: str | None


class BillingStore:
    def __init__(
        self,
        state: BillingState,
        persistence: Persistence,
        start: datetime,
        verification_delay: timedelta = VERIFICATION_DELAY,
    ) -> None:
        self._lock = threading.RLock()
        self._persistence = persistence
        self._start = start
        self.verification_delay = verification_delay
        self.forced_outcomes: Forced = {}
        """The verdicts loaded scenarios force, by (tenant, reference); not business state:
        like fault rules it is neither saved nor snapshotted (the control replaces it)."""
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

    def payment_report(self, tenant_id: str, report_id: str) -> PaymentReport | None:
        """The report with exactly this id in this tenant; another tenant's is None."""
        with self._lock:
            return self._reports.get((tenant_id, report_id))

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
        refuse: Callable[[Account], FieldError | None] = lambda _: None,
    ) -> PaymentOutcome:
        """Record a payment once per idempotency key (Stripe semantics).

        The key is looked up first: a replay or a conflict is answered before any business
        rule (`refuse`) is asked, so the same key with another currency is a 409, never a
        422. The payment is then made on copies of the account and the tenant's sequences,
        rendered and saved; only then are the copies adopted. A failure anywhere before
        that (a response that cannot be rendered, a broken invariant, a disk error) leaves
        memory and the state file exactly as they were. All of it under the lock, so
        concurrent requests with the same key see no record or the stored response.
        """
        with self._lock:
            earlier = self._replay(tenant_id, key, fingerprint)
            if earlier is not None:
                return earlier
            refused = refuse(account)
            if refused is not None:
                return PaymentOutcome(422, None, replayed=False, error=refused)
            amount, method, reference = payment
            if engine.credit_overflows(account, amount):
                message = (
                    "the credit left over would exceed the largest amount the API can represent"
                )
                return PaymentOutcome(422, None, False, FieldError("body.amount", message))
            work = copy.deepcopy(account)
            sequences = {
                **self._state.sequences,
                tenant_id: copy.deepcopy(self._state.sequences[tenant_id]),
            }
            prospective = dataclasses.replace(self._state, sequences=sequences)
            made = engine.record_payment(
                prospective, work, amount, method, reference, self._state.now
            )
            check_account(work)
            body = render(made)
            record = IdempotencyRecord(key, fingerprint, 201, body, self._state.now)
            self._persistence.save_write(Write(prospective, [work], (tenant_id, record)))
            # adopted in place: the indexes keep pointing at the same Account object
            for name in ACCOUNT_FIELDS:
                setattr(account, name, getattr(work, name))
            self._state.sequences = sequences
            self._state.idempotency.setdefault(tenant_id, {})[key] = record
            return PaymentOutcome(201, body, replayed=False)

    def report_payment(
        self,
        tenant_id: str,
        account: Account,
        key: str,
        fingerprint: str,
        new: NewReport,
        render: Callable[[PaymentReport], str],
        refused: FieldError | None = None,
    ) -> PaymentOutcome:
        """Record a payment report once per idempotency key, as `pay` records a payment.

        The key is looked up first, so a replay or a conflict is answered before `refused`
        (422). The report books nothing (`payment_report.pending`): only the account's
        report list and the tenant's report counter change, on copies adopted once saved.
        """
        with self._lock:
            earlier = self._replay(tenant_id, key, fingerprint)
            if earlier is not None:
                return earlier
            if refused is not None:
                return PaymentOutcome(422, None, replayed=False, error=refused)
            work = copy.deepcopy(account)
            counters = copy.deepcopy(self._state.sequences[tenant_id])
            counters.next_report += 1
            made = PaymentReport(
                report_id(counters.next_report),
                account.customer.account_number,
                created_at=self._state.now,
                **{f.name: getattr(new, f.name) for f in dataclasses.fields(NewReport)},
            )
            work.payment_reports.append(made)
            body = render(made)
            sequences = {**self._state.sequences, tenant_id: counters}
            prospective = dataclasses.replace(self._state, sequences=sequences)
            record = IdempotencyRecord(key, fingerprint, 201, body, self._state.now)
            self._persistence.save_write(Write(prospective, [work], (tenant_id, record)))
            account.payment_reports = work.payment_reports
            self._state.sequences = sequences
            self._state.idempotency.setdefault(tenant_id, {})[key] = record
            self._reports[(tenant_id, made.report_id)] = made
            return PaymentOutcome(201, body, replayed=False)

    def _replay(self, tenant_id: str, key: str, fingerprint: str) -> PaymentOutcome | None:
        """The stored answer for a key already used: its 201 again, or 409 for another
        request; None for a new key. Asked before any business rule."""
        existing = self._state.idempotency.get(tenant_id, {}).get(key)
        if existing is None:
            return None
        if existing.fingerprint != fingerprint:
            return PaymentOutcome(409, None, replayed=False)
        return PaymentOutcome(existing.status, existing.body, replayed=True)

    def advance(self, to: datetime) -> DayReport:
        """Move business time on a copy of the state; adopted once checked and saved.
        Payment reports whose verification delay has passed are verified on the way.

        Within the same business day only the accounts whose reports fall due can change
        (no day is processed), so the copy shares every other account and copies those and
        the id sequences: a deep copy of every account's history took a second at 300
        customers a tenant, for each few minutes a test or an evaluation moved the clock
        (half a second whenever a seeded report fell due)."""
        with self._lock:
            delay = self.verification_delay
            moments = report_verification.due_moments(self._state, delay, to)
            candidate = (
                _sharing_copy(self._state, report_verification.due_accounts(self._state, delay, to))
                if to.date() == self._state.now.date()
                else copy.deepcopy(self._state)
            )
            report = DayReport()
            for moment in moments:  # each report is judged when its delay passes
                report.add(engine.advance(candidate, moment))
                report_verification.verify_due(
                    candidate, self._start.date(), self.verification_delay, self.forced_outcomes
                )
            report.add(engine.advance(candidate, to))  # refuses a clock going back, in both cases
            check_state(candidate)
            self._persistence.save_all(candidate)
            self._install(candidate)
            return report

    def reset(self, seed: int | None = None, customers_per_tenant: int | None = None) -> None:
        """A fresh dataset (same seed by default); idempotency keys are forgotten. The new
        dataset is built and saved before it replaces the old one (bad arguments raise
        `ValueError` and change nothing)."""
        with self._lock:
            state = dataset.generate(
                self._state.seed if seed is None else seed,
                self._state.customers_per_tenant
                if customers_per_tenant is None
                else customers_per_tenant,
                self._start,
            )
            self._persistence.save_all(state)
            self._install(state)

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
            state = codec.loads(BillingState, document)
            self._persistence.save_all(state)
            self._install(state)

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
        self._reports = {
            (tenant_id, report.report_id): report
            for tenant_id, accounts in self._state.accounts.items()
            for account in accounts.values()
            for report in account.payment_reports
        }


def _sharing_copy(state: BillingState, changing: set[tuple[str, str]]) -> BillingState:
    """A copy of `state` whose accounts in `changing` (tenant, account number) and id
    sequences are its own; every other account is shared, so it must not be changed."""
    return dataclasses.replace(
        state,
        accounts={
            tenant_id: {
                number: copy.deepcopy(account) if (tenant_id, number) in changing else account
                for number, account in accounts.items()
            }
            for tenant_id, accounts in state.accounts.items()
        },
        sequences=copy.deepcopy(state.sequences),
    )
