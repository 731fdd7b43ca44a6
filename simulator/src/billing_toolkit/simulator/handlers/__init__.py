"""One small handler per operationId of `contract/openapi.yaml`."""

from __future__ import annotations

from collections.abc import Callable

from billing_toolkit.simulator.handlers.balance import get_balance
from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.handlers.customers import get_customer, lookup_customer
from billing_toolkit.simulator.handlers.exchange_rates import get_exchange_rate
from billing_toolkit.simulator.handlers.health import get_liveness, get_readiness
from billing_toolkit.simulator.handlers.invoices import get_invoice, list_invoices
from billing_toolkit.simulator.handlers.payment_reports import (
    create_payment_report,
    get_payment_report,
    list_payment_reports,
)
from billing_toolkit.simulator.handlers.payments import create_payment, list_payments
from billing_toolkit.simulator.handlers.plans import get_subscription, list_plans
from billing_toolkit.simulator.problems import Reply

Handler = Callable[[OperationContext], Reply]

BILLING_HANDLERS: dict[str, Handler] = {
    "getLiveness": get_liveness,
    "getReadiness": get_readiness,
    "lookupCustomer": lookup_customer,
    "getCustomer": get_customer,
    "getSubscription": get_subscription,
    "listPlans": list_plans,
    "getBalance": get_balance,
    "listInvoices": list_invoices,
    "getInvoice": get_invoice,
    "listPayments": list_payments,
    "createPayment": create_payment,
    "getExchangeRate": get_exchange_rate,
    "listPaymentReports": list_payment_reports,
    "createPaymentReport": create_payment_report,
    "getPaymentReport": get_payment_report,
}

__all__ = ["BILLING_HANDLERS", "Handler", "OperationContext"]
