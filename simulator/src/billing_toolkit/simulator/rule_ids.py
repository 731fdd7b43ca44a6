"""Which code of the simulator implements each business rule of the contract, by rule id.

The contract lists its rules in `x-business-rules` (`billing_toolkit.contract.rules`); this
table names the function or class that makes each one true here, so a reader can go from a
rule id to the code, and `tests/conformance/test_business_rules.py` fails when the contract
gains a rule the simulator does not name (or this table names one the contract dropped).
Bias: name the one place that decides the rule, not every caller.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from billing_toolkit.contract import conversion
from billing_toolkit.simulator.handlers import (
    customers,
    invoices,
    payment_reports,
    payments,
    plans,
)
from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.middleware import RequestContextMiddleware
from billing_toolkit.simulator.pagination import Cursors
from billing_toolkit.simulator.representations import payment_view
from billing_toolkit.simulator.state import billing, engine, exchange_rates, report_verification
from billing_toolkit.simulator.state.invariants import balance_of
from billing_toolkit.simulator.state.models import Invoice
from billing_toolkit.simulator.state.store import BillingStore

IMPLEMENTED_BY: dict[str, Callable[..., Any] | type] = {
    "balance.net": balance_of,
    "balance.amount_due": balance_of,
    "balance.next_due_date": balance_of,
    "invoice.arithmetic": Invoice,
    "invoice.status": engine.record_payment,
    "invoice.billing_period": billing.billing_period,
    "payment.allocation": billing.allocate,
    "currency.account": engine.issue_invoice,
    "currency.payment": payments.create_payment,
    "idempotency.key_required": payments.create_payment,
    "idempotency.replay": BillingStore.pay,
    "idempotency.fingerprint": payments.create_payment,
    "idempotency.tenant_scope": BillingStore.pay,
    "idempotency.concurrency": BillingStore.pay,
    "idempotency.retention": BillingStore.pay,
    "identifier.exact": customers.lookup_customer,
    "tenancy.isolation": OperationContext.owned_account,
    "pagination.walk": Cursors.page,
    "pagination.filter": invoices.list_invoices,
    "pagination.cursor_bound": Cursors.decode,
    "subscription.billing_dates": billing.next_billing_date,
    "subscription.pending_change": engine.schedule_plan_change,
    "plan.catalogue": plans.list_plans,
    "customer.status": engine.process_day,
    "payment.listed": payment_view,
    "request_id.echo": RequestContextMiddleware,
    "exchange_rate.conversion": conversion.convert,  # the kernel's, booked by verify_due
    "exchange_rate.carried_over": exchange_rates.rate_on,
    "payment_report.pending": BillingStore.report_payment,
    "payment_report.verified": report_verification.verify_due,
    "payment_report.duplicate_reference": report_verification.judge,
    "payment_report.method_currency": report_verification.judge,
    "payment_report.idempotency": payment_reports.create_payment_report,
    "payment_report.listed": payment_reports.list_payment_reports,
}
"""Rule id → the function or class of the simulator that implements it."""
