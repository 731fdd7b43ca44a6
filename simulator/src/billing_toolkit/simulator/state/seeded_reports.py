"""Payment reports in the generated history, so a read-only run sees every status it can.

Every account gets one report rejected three days ago and one still pending. Neither is on
the bank statement (eight-digit references; the statement's Pago Móvil references have
seven digits and its transfers twelve), so no seeded report ever moves money: advancing
the clock only rejects the pending one, and the dataset's balances stay what the billing
history made them.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from decimal import Decimal

from billing_toolkit.simulator.state.bank_statement import BANKS
from billing_toolkit.simulator.state.identifiers import report_id
from billing_toolkit.simulator.state.models import Account, BillingState, PaymentReport


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
