"""What each capability asks the billing API and how it turns the answers into a ToolResult.

Each flow is a generator that yields *requests for a client call* (a function of the
client) and receives the parsed model; it never does I/O itself, so one flow serves the
sync and the async `Capabilities` alike. A `BillingError` raised by a call (or by the flow:
another account's invoice is reported as missing) ends the flow; the driver turns it into
the failed ToolResult with `failure_result`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator
from typing import Any

from billing_toolkit.client.bill_change import compare
from billing_toolkit.client.due_figures import (
    arrears_data,
    arrears_evidence,
    arrears_of,
    days_until_due,
    due_evidence,
)
from billing_toolkit.client.errors import (
    AuthenticationError,
    BillingError,
    BusinessError,
    InvoiceNotFoundError,
    NotFoundError,
)
from billing_toolkit.client.evidence import (
    balance_evidence,
    bill_change_evidence,
    customer_evidence,
    invoice_evidence,
    invoices_evidence,
    payment_evidence,
    payments_evidence,
    plan_evidence,
)
from billing_toolkit.client.models.billing import Invoice, InvoiceStatus
from billing_toolkit.client.money import format_amount
from billing_toolkit.client.tool_result import ToolResult

logger = logging.getLogger("billing_toolkit.client.capabilities")

Ask = Callable[[Any], Any]
"""A call to make on the client, e.g. `lambda c: c.get_balance("1000004821")`."""

CapabilityFlow = Generator[Ask, Any, ToolResult]

ARREARS_PAGE = 100
"""The overdue invoices read for `arrears` (the contract's page maximum)."""
BILL_CHANGE_PAGE = 6
BILL_CHANGE_MAX_PAGES = 10
"""`bill_change` skips void invoices; it reads at most this many pages to find two others."""


def failure_result(capability: str, subject: str, error: BillingError) -> ToolResult:
    """The ToolResult of a failed capability.

    A business "no" is an answer (`should_escalate=False`): the thing does not exist, or
    the identifier is not valid. Everything else escalates: an outage, an open circuit, a
    contract violation, and also `unauthorized`, which the contract files as a business
    code but which, for the assistant, means the deployment is misconfigured and no answer
    is possible.
    """
    escalate = not isinstance(error, BusinessError) or isinstance(error, AuthenticationError)
    message = f"no {subject}" if isinstance(error, NotFoundError) else error.message
    if escalate:
        logger.warning(
            "capability %s failed: %s (%s)", capability, error.code, type(error).__name__
        )
    return ToolResult(
        capability=capability,
        ok=False,
        error=f"{error.code}: {message}",
        should_escalate=escalate,
    )


def _customer(capability: str, **lookup: str) -> CapabilityFlow:
    customer = yield lambda c: c.lookup_customer(**lookup)
    return ToolResult(
        capability, True, customer_evidence(customer), customer.model_dump(mode="json")
    )


def _balance(account_number: str) -> CapabilityFlow:
    """The balance, and the days left to its next due date (computed)."""
    balance = yield lambda c: c.get_balance(account_number)
    data = balance.model_dump(mode="json") | {"days_until_due": days_until_due(balance)}
    return ToolResult("balance", True, balance_evidence(balance) + due_evidence(balance), data)


def _arrears(account_number: str) -> CapabilityFlow:
    """What is overdue: the amount, the late fees billed on it and how long it has been due."""
    balance = yield lambda c: c.get_balance(account_number)
    page = yield lambda c: c.list_invoices(account_number, status="overdue", limit=ARREARS_PAGE)
    arrears = arrears_of(balance, page.data)
    return ToolResult("arrears", True, arrears_evidence(arrears), arrears_data(arrears))


def _invoices(account_number: str, status: str | None, limit: int) -> CapabilityFlow:
    page = yield lambda c: c.list_invoices(account_number, status=status, limit=limit)
    data = {
        "account_number": account_number,
        "status": status,
        "invoices": [invoice.model_dump(mode="json") for invoice in page.data],
        "more": page.next_cursor is not None,
    }
    return ToolResult("invoices", True, invoices_evidence(account_number, page, status), data)


def _invoice_by_number(account_number: str, invoice_number: str) -> CapabilityFlow:
    """Exact lookup. An invoice of another account answers exactly like a missing one: the
    subscriber may only learn about their own invoices."""
    invoice = yield lambda c: c.get_invoice(invoice_number)
    if invoice.account_number != account_number:
        raise InvoiceNotFoundError("No invoice has this number.", operation_id="getInvoice")
    return ToolResult(
        "invoice_by_number", True, invoice_evidence(invoice), invoice.model_dump(mode="json")
    )


def _last_payment(account_number: str) -> CapabilityFlow:
    page = yield lambda c: c.list_payments(account_number, limit=1)
    if not page.data:
        text = f"Account {account_number} has no payments on record."
        data = {"account_number": account_number, "payment": None}
        return ToolResult("last_payment", True, text, data)
    payment = page.data[0]
    data = {"account_number": account_number, "payment": payment.model_dump(mode="json")}
    return ToolResult("last_payment", True, payment_evidence(payment), data)


def _payments(account_number: str, limit: int) -> CapabilityFlow:
    page = yield lambda c: c.list_payments(account_number, limit=limit)
    data = {
        "account_number": account_number,
        "payments": [payment.model_dump(mode="json") for payment in page.data],
        "more": page.next_cursor is not None,
    }
    return ToolResult("payments", True, payments_evidence(account_number, page), data)


def _plan(account_number: str) -> CapabilityFlow:
    """The current plan, and the plan a scheduled change moves to (from the catalogue)."""
    subscription = yield lambda c: c.get_subscription(account_number)
    pending_plan = None
    if subscription.pending_change is not None:
        catalogue = yield lambda c: c.list_plans()
        wanted = subscription.pending_change.plan_id
        pending_plan = next((p for p in catalogue.data if p.plan_id == wanted), None)
    data = {
        "subscription": subscription.model_dump(mode="json"),
        "pending_plan": pending_plan.model_dump(mode="json") if pending_plan else None,
    }
    return ToolResult("plan", True, plan_evidence(subscription, pending_plan), data)


def _two_billed(
    account_number: str, invoice_number: str | None
) -> Generator[Ask, Any, list[Invoice]]:
    """The pair to compare, newest first, void invoices skipped: the latest and the one
    before it, or `invoice_number` and the one before it. One when there is none before;
    [] when the account has none (or `invoice_number` is not its own)."""
    found: list[Invoice] = []
    cursor = None
    for _ in range(BILL_CHANGE_MAX_PAGES):
        page = yield lambda c, after=cursor: c.list_invoices(
            account_number, limit=BILL_CHANGE_PAGE, cursor=after
        )
        found += [i for i in page.data if i.status is not InvoiceStatus.VOID]
        cursor = page.next_cursor
        if cursor is None or len(_pair_from(found, invoice_number)) == 2:
            break
    return _pair_from(found, invoice_number)


def _pair_from(found: list[Invoice], invoice_number: str | None) -> list[Invoice]:
    """`invoice_number` (the first of `found` when None) and the invoice after it in
    `found`, as far as `found` goes; [] when `invoice_number` is not among them."""
    numbers = [i.invoice_number for i in found]
    if invoice_number is None:
        return found[:2]
    if invoice_number not in numbers:
        return []
    at = numbers.index(invoice_number)
    return found[at : at + 2]


def _bill_change(account_number: str, invoice_number: str | None) -> CapabilityFlow:
    """An invoice (the latest unless named) against the one before it; a named invoice that
    is not the account's is reported missing, as another account's always is."""
    invoices = yield from _two_billed(account_number, invoice_number)
    if not invoices:
        named = f" {invoice_number}" if invoice_number else "s"
        text = f"Account {account_number} has no billed invoice{named}."
        return ToolResult("bill_change", False, None, None, f"invoice_not_found: {text}")
    if len(invoices) == 1:
        only = invoices[0]
        text = (
            f"Account {account_number} has no invoice before {only.invoice_number}: "
            "there is no earlier invoice to compare it with."
        )
        data = {"latest": only.model_dump(mode="json"), "previous": None}
        return ToolResult("bill_change", True, text, data)
    change = compare(*invoices)
    difference = change.total_difference
    data = {
        "latest": change.latest.model_dump(mode="json"),
        "previous": change.previous.model_dump(mode="json"),
        "total_difference": None if difference is None else format_amount(difference),
        "appeared": [t.kind.value for t in change.appeared],
        "disappeared": [t.kind.value for t in change.disappeared],
        "changed": {c.kind.value: format_amount(c.difference) for c in change.changed},
    }
    return ToolResult("bill_change", True, bill_change_evidence(change), data)


def guarded(capability: str, subject: str, flow: CapabilityFlow) -> CapabilityFlow:
    """A failed call ends the flow as `failure_result` says (a "no" or an escalation)."""
    try:
        return (yield from flow)
    except BillingError as error:
        return failure_result(capability, subject, error)


def _account(account_number: str) -> str:
    return f"customer with account {account_number}"


def customer_by_phone(phone: str) -> CapabilityFlow:
    name = "customer_by_phone"
    return guarded(name, f"customer with phone {phone}", _customer(name, phone=phone))


def customer_by_account(account_number: str) -> CapabilityFlow:
    name = "customer_by_account"
    flow = _customer(name, account_number=account_number)
    return guarded(name, _account(account_number), flow)


def customer_by_national_id(national_id: str) -> CapabilityFlow:
    name = "customer_by_national_id"
    flow = _customer(name, national_id=national_id)
    return guarded(name, f"customer with national ID {national_id}", flow)


def balance(account_number: str) -> CapabilityFlow:
    return guarded("balance", _account(account_number), _balance(account_number))


def invoices(account_number: str, status: str | None, limit: int) -> CapabilityFlow:
    flow = _invoices(account_number, status, limit)
    return guarded("invoices", _account(account_number), flow)


def invoice_by_number(account_number: str, invoice_number: str) -> CapabilityFlow:
    subject = f"invoice {invoice_number} on account {account_number}"
    flow = _invoice_by_number(account_number, invoice_number)
    return guarded("invoice_by_number", subject, flow)


def arrears(account_number: str) -> CapabilityFlow:
    return guarded("arrears", _account(account_number), _arrears(account_number))


def last_payment(account_number: str) -> CapabilityFlow:
    return guarded("last_payment", _account(account_number), _last_payment(account_number))


def payments(account_number: str, limit: int) -> CapabilityFlow:
    return guarded("payments", _account(account_number), _payments(account_number, limit))


def plan(account_number: str) -> CapabilityFlow:
    return guarded("plan", _account(account_number), _plan(account_number))


def bill_change(account_number: str, invoice_number: str | None = None) -> CapabilityFlow:
    flow = _bill_change(account_number, invoice_number)
    return guarded("bill_change", _account(account_number), flow)
