"""Verifying payment reports against the bank statement once the verification delay passed.

Pure rules over the state, run when the test clock moves (`BillingStore.advance`). Reports
are judged in the order they were made, so the first report of a reference is the one the
statement can verify and every later claim of it is a duplicate. Bias: reject whenever the
statement does not show exactly what was reported; a verified report is a payment, made by
the same `engine.record_payment` that `createPayment` uses.

A scenario can force the verdict for a reference (`Forced`): `verified` stands for a
statement entry showing exactly what the report says, a reason for the statement saying
that. Everything else is judged as ever, so a forced verification still refuses a method
paid in the wrong currency, is claimed once (a later report of the reference is a
duplicate) and is booked by the same code. An amount the books cannot hold (credit past the
largest amount the API represents, which `createPayment` refuses with 422) is rejected as
`amount_mismatch`, never booked into a balance the contract cannot state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date, datetime, timedelta
from decimal import Decimal

from billing_toolkit.contract.conversion import convert
from billing_toolkit.simulator.state import engine
from billing_toolkit.simulator.state.bank_statement import StatementEntry, statement
from billing_toolkit.simulator.state.exchange_rates import rate_on
from billing_toolkit.simulator.state.models import PENDING, Account, BillingState, PaymentReport

VERIFICATION_DELAY = timedelta(minutes=30)
"""How long the billing team takes to check a report against the bank statement (the
store's default; `BillingStore(verification_delay=...)` sets another)."""
MAX_VERIFICATION_DELAY = timedelta(days=30)
"""The longest delay `serve --report-verification-delay` takes: the statement covers a month."""
VERIFIED = "verified"
REJECTION_REASONS = (
    "reference_not_found",
    "amount_mismatch",
    "duplicate_reference",
    "currency_not_allowed",
)
"""The contract's `RejectionReason`, in its order."""
METHOD_CURRENCY = {"pago_movil": "VES", "bank_transfer": "VES", "zelle": "USD"}
"""The only currency each reported method is paid in (`payment_report.method_currency`)."""


Claim = tuple[str | None, str]
"""A statement entry as (bank, reference): what a verified report used up."""
Forced = Mapping[tuple[str, str], str]
"""(tenant, reference) → the verdict a scenario forces: `VERIFIED` or a rejection reason."""


def _earlier(report: PaymentReport) -> tuple[datetime, str]:
    return report.created_at, report.report_id


def matching(report: PaymentReport, entries: Iterable[StatementEntry]) -> list[StatementEntry]:
    """The statement entries with the report's reference (and its bank, when it named one)."""
    return [
        entry
        for entry in entries
        if entry.reference == report.reference and report.bank in (None, entry.bank)
    ]


def candidates(
    report: PaymentReport, entries: Iterable[StatementEntry], forced: str | None = None
) -> list[StatementEntry]:
    """The entries that could verify `report`: those `matching` it, or — its reference
    forced `VERIFIED` — one entry of exactly what it reports, bank left out so every report
    of the reference claims the same one."""
    if forced != VERIFIED:
        return matching(report, entries)
    return [
        StatementEntry(
            report.reference,
            None,
            report.amount,
            report.currency,
            report.method,
            report.payment_date,
        )
    ]


def judge(
    report: PaymentReport,
    claimed: set[Claim],
    entries: Iterable[StatementEntry],
    forced: str | None = None,
) -> tuple[str | None, Claim | None]:
    """(why `report` is rejected — a `RejectionReason` — or None, and the entry it claims
    when verified). `forced`: the verdict a scenario forces for its reference, if any."""
    if forced is not None and forced != VERIFIED:
        return forced, None
    if METHOD_CURRENCY[report.method] != report.currency:
        return "currency_not_allowed", None
    if any(
        reference == report.reference and report.bank in (None, bank) for bank, reference in claimed
    ):
        return "duplicate_reference", None  # a verified report's own, on the statement or not
    found = candidates(report, entries, forced)
    if not found:
        return "reference_not_found", None
    if any((entry.bank, entry.reference) in claimed for entry in found):
        return "duplicate_reference", None
    exact = [e for e in found if e.amount == report.amount and e.currency == report.currency]
    if not exact:
        return "amount_mismatch", None
    return None, (exact[0].bank, exact[0].reference)


def _credited(
    state: BillingState, account: Account, report: PaymentReport
) -> tuple[Decimal, Decimal | None]:
    """The report's amount in the account's currency, converted at `payment_date`'s rate,
    and that rate (None when the currencies agree)."""
    if report.currency == account.customer.currency:
        return report.amount, None
    published = rate_on(state.seed, report.payment_date)
    assert published is not None, "payment_date was checked against the series at intake"
    return convert(report.amount, report.currency, published.rate), published.rate


def _verify(
    state: BillingState,
    account: Account,
    report: PaymentReport,
    credit: tuple[Decimal, Decimal | None],
    now: datetime,
) -> None:
    """The report becomes a payment of `credit` (amount and rate, from `_credited`)."""
    credited, rate = credit
    payment = engine.record_payment(state, account, credited, report.method, report.reference, now)
    report.payment_id, report.credited_amount, report.exchange_rate = (
        payment.payment_id,
        credited,
        rate,
    )


def due_moments(state: BillingState, delay: timedelta, by: datetime) -> list[datetime]:
    """The moments, in order, at which pending reports fall due for verification by `by`
    (one already due counts at `state.now`). The clock stops at each, so a report is judged
    and booked when its delay passes, before any later day's overdue, late fee or
    suspension: verified only at `by`, a payment made in time paid a late fee."""
    return sorted(
        {
            max(report.created_at + delay, state.now)
            for accounts in state.accounts.values()
            for account in accounts.values()
            for report in account.payment_reports
            if report.status == PENDING and report.created_at + delay <= by
        }
    )


def due_accounts(state: BillingState, delay: timedelta, by: datetime) -> set[tuple[str, str]]:
    """(tenant, account number) of every account holding a pending report that falls due by
    `by`: the only accounts a verification up to `by` can change."""
    return {
        (tenant_id, number)
        for tenant_id, accounts in state.accounts.items()
        for number, account in accounts.items()
        if any(
            report.status == PENDING and report.created_at + delay <= by
            for report in account.payment_reports
        )
    }


def verify_due(
    state: BillingState, start: date, delay: timedelta, forced: Forced | None = None
) -> list[Account]:
    """Resolve every pending report made at least `delay` before `state.now` (with the
    verdicts `forced` by scenarios); the accounts whose reports were resolved (their
    payments and invoices may have changed)."""
    forced = forced or {}
    touched: list[Account] = []
    for tenant in state.tenants:
        accounts = state.accounts[tenant.tenant_id].values()
        reports = sorted(
            ((report, account) for account in accounts for report in account.payment_reports),
            key=lambda pair: _earlier(pair[0]),
        )
        entries = statement(state.seed, tenant.tenant_id, start)
        verdicts = {r.reference: forced.get((tenant.tenant_id, r.reference)) for r, _ in reports}
        claimed = {
            (entry.bank, entry.reference)
            for report, _ in reports
            if report.status == VERIFIED
            for entry in candidates(report, entries, verdicts[report.reference])
        } | {(report.bank, report.reference) for report, _ in reports if report.status == VERIFIED}
        for report, account in reports:
            if report.status != PENDING or report.created_at + delay > state.now:
                continue
            reason, entry = judge(report, claimed, entries, verdicts[report.reference])
            credit = _credited(state, account, report) if entry is not None else None
            if credit is not None and engine.credit_overflows(account, credit[0]):
                # no statement shows a credit the books cannot hold
                reason, entry = "amount_mismatch", None
            if entry is not None and credit is not None:
                _verify(state, account, report, credit, state.now)
                report.status = VERIFIED
                claimed.add(entry)
            else:
                report.status, report.rejection_reason = "rejected", reason
            report.resolved_at = state.now
            if account not in touched:
                touched.append(account)
    return touched
