"""Payment reports in the generated history, so a read-only run sees every status it can.

Every account gets one report rejected three days ago and one still pending. Neither is on
the bank statement (eight-digit references; the statement's Pago Móvil references have
seven digits and its transfers twelve), so no seeded report ever moves money: advancing
the clock only rejects the pending one, and the dataset's balances stay what the billing
history made them.

Each tenant also has one `verified` report, in bolívares on a dollar account: the report
behind a Pago Móvil or transfer payment the history already holds (its amount the payment's converted
at the rate of its day, so it credits exactly that payment, booked by `record_payment` as
`createPayment` books). A read-only check of the API (`billing-contract verify`) then sees
a verified report, its conversion and the payment it names, and the balances still stay
what the history made them. It takes the tenant's next report id after the others, so the
ids of every other seeded report are what they were.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from decimal import Decimal

from billing_toolkit.contract.conversion import to_usd, to_ves
from billing_toolkit.simulator.state.bank_statement import BANKS
from billing_toolkit.simulator.state.exchange_rates import rate_on
from billing_toolkit.simulator.state.identifiers import report_id
from billing_toolkit.simulator.state.info import SAMPLES
from billing_toolkit.simulator.state.models import (
    Account,
    BillingState,
    Payment,
    PaymentReport,
)


def _report(rng: random.Random, account: Account, number: int, at: datetime) -> PaymentReport:
    customer = account.customer
    return PaymentReport(
        report_id=report_id(number),
        account_number=customer.account_number,
        method="pago_movil",
        amount=Decimal(rng.randrange(50_000, 500_000)).scaleb(-2),
        currency="VES",
        reference=f"{rng.randrange(10**7, 10**8)}",
        bank=rng.choice(BANKS),
        payment_date=at.date(),
        payer_phone=customer.phone,
        payer_national_id=customer.national_id,
        created_at=at,
    )


def seed_reports(state: BillingState, delay: timedelta) -> None:
    """Two reports per account, in account-number order (ids follow the tenant's counter)."""
    rng = random.Random(f"reports|{state.seed}")
    for tenant in state.tenants:
        counters = state.sequences[tenant.tenant_id]
        for number in sorted(state.accounts[tenant.tenant_id]):
            account = state.accounts[tenant.tenant_id][number]
            earlier = state.now.replace(hour=14, minute=0, second=0) - timedelta(days=3)
            rejected = _report(rng, account, counters.next_report + 1, earlier)
            rejected.status, rejected.rejection_reason = "rejected", "reference_not_found"
            rejected.resolved_at = earlier + delay
            pending = _report(
                rng, account, counters.next_report + 2, state.now - timedelta(minutes=10)
            )
            counters.next_report += 2
            account.payment_reports.extend([rejected, pending])
        found = _verified(state, tenant.tenant_id, rng, delay)
        if found is not None:
            account, report = found
            counters.next_report += 1
            report.report_id = report_id(counters.next_report)
            account.payment_reports.append(report)


def _verified(
    state: BillingState, tenant_id: str, rng: random.Random, delay: timedelta
) -> tuple[Account, PaymentReport] | None:
    """The verified report behind the latest Pago Móvil or transfer payment of the
    tenant's `open_invoice` sample (`dataset_info`: the account a client's tests and the
    conformance kit work with), else of its first dollar account that has one; only a
    dollar account's, so the report is converted. Its id is set by the caller."""
    accounts = [state.accounts[tenant_id][number] for number in sorted(state.accounts[tenant_id])]
    tested = [a for a in accounts if SAMPLES["open_invoice"](a)][:1]
    for account in [*tested, *accounts]:
        if account.customer.currency != "USD":
            continue
        paid = [p for p in account.payments if p.method in _VES_METHODS and p.reference]
        if not paid:
            continue
        payment = max(paid, key=lambda p: (p.received_at, p.payment_id))
        report = _report_behind(state, account, payment, rng, delay)
        if report is not None:
            return account, report
    return None


_VES_METHODS = ("pago_movil", "bank_transfer")
"""The reported methods paid in bolívares (`report_verification.METHOD_CURRENCY`)."""


def _report_behind(
    state: BillingState, account: Account, payment: Payment, rng: random.Random, delay: timedelta
) -> PaymentReport | None:
    """The report that became `payment` once verified: made `delay` before the payment was
    booked, in bolívares at the rate of the day it was made."""
    created = payment.received_at - delay
    published = rate_on(state.seed, created.date())
    if published is None:
        return None
    amount = to_ves(payment.amount, published.rate)
    if to_usd(amount, published.rate) != payment.amount:
        return None
    customer = account.customer
    return PaymentReport(
        report_id="",
        account_number=customer.account_number,
        method=payment.method,
        amount=amount,
        currency="VES",
        reference=payment.reference or "",
        bank=rng.choice(BANKS),
        payment_date=created.date(),
        payer_phone=customer.phone,
        payer_national_id=customer.national_id,
        created_at=created,
        status="verified",
        resolved_at=payment.received_at,
        payment_id=payment.payment_id,
        credited_amount=payment.amount,
        exchange_rate=published.rate,
    )
