"""Verifying payment reports against the bank statement once the verification delay passed.

Pure rules over the state, run when the test clock moves (`BillingStore.advance`). Reports
are judged in the order they were made, so the first report of a reference is the one the
statement can verify and every later claim of it is a duplicate. Bias: reject whenever the
statement does not show exactly what was reported; a verified report is a payment, made by
the same `engine.record_payment` that `createPayment` uses.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta

from billing_toolkit.simulator.state import engine
from billing_toolkit.simulator.state.bank_statement import StatementEntry, statement
from billing_toolkit.simulator.state.exchange_rates import convert, rate_on
from billing_toolkit.simulator.state.models import PENDING, Account, BillingState, PaymentReport

VERIFICATION_DELAY = timedelta(minutes=30)
"""How long the billing team takes to check a report against the bank statement (the
store's default; `BillingStore(verification_delay=...)` sets another)."""
METHOD_CURRENCY = {"pago_movil": "VES", "bank_transfer": "VES", "zelle": "USD"}
"""The only currency each reported method is paid in (`payment_report.method_currency`)."""


Claim = tuple[str | None, str]
"""A statement entry as (bank, reference): what a verified report used up."""


def _earlier(report: PaymentReport) -> tuple[datetime, str]:
    return report.created_at, report.report_id


def matching(report: PaymentReport, entries: Iterable[StatementEntry]) -> list[StatementEntry]:
    """The statement entries with the report's reference (and its bank, when it named one)."""
    return [
        entry
        for entry in entries
        if entry.reference == report.reference and report.bank in (None, entry.bank)
    ]


def judge(
    report: PaymentReport, claimed: set[Claim], entries: Iterable[StatementEntry]
) -> tuple[str | None, Claim | None]:
    """(why `report` is rejected — a `RejectionReason` — or None, and the entry it claims
    when verified)."""
    if METHOD_CURRENCY[report.method] != report.currency:
        return "currency_not_allowed", None
    found = matching(report, entries)
    if not found:
        return "reference_not_found", None
    if any((entry.bank, entry.reference) in claimed for entry in found):
        return "duplicate_reference", None
    exact = [e for e in found if e.amount == report.amount and e.currency == report.currency]
    if not exact:
        return "amount_mismatch", None
    return None, (exact[0].bank, exact[0].reference)


def _verify(state: BillingState, account: Account, report: PaymentReport, now: datetime) -> None:
    """The report becomes a payment in the account's currency, converted at `payment_date`'s rate."""
    billed_in = account.customer.currency
    credited, rate = report.amount, None
    if report.currency != billed_in:
        published = rate_on(state.seed, report.payment_date)
        assert published is not None, "payment_date was checked against the series at intake"
        rate = published.rate
        credited = convert(report.amount, report.currency, rate)
    payment = engine.record_payment(state, account, credited, report.method, report.reference, now)
    report.payment_id, report.credited_amount, report.exchange_rate = (
        payment.payment_id,
        credited,
        rate,
    )


def verify_due(state: BillingState, start: date, delay: timedelta) -> list[Account]:
    """Resolve every pending report made at least `delay` before `state.now`; the accounts
    whose reports were resolved (their payments and invoices may have changed)."""
    touched: list[Account] = []
    for tenant in state.tenants:
        accounts = state.accounts[tenant.tenant_id].values()
        reports = sorted(
            ((report, account) for account in accounts for report in account.payment_reports),
            key=lambda pair: _earlier(pair[0]),
        )
        entries = statement(state.seed, tenant.tenant_id, start)
        claimed = {
            (entry.bank, entry.reference)
            for report, _ in reports
            if report.status == "verified"
            for entry in matching(report, entries)
        }
        for report, account in reports:
            if report.status != PENDING or report.created_at + delay > state.now:
                continue
            reason, entry = judge(report, claimed, entries)
            if entry is not None:
                _verify(state, account, report, state.now)
                report.status = "verified"
                claimed.add(entry)
            else:
                report.status, report.rejection_reason = "rejected", reason
            report.resolved_at = state.now
            if account not in touched:
                touched.append(account)
    return touched
