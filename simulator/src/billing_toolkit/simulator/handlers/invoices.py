"""Invoices: a customer's list (filtered, paginated, newest first) and exact lookup by number."""

from __future__ import annotations

from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.handlers.paging import page_reply
from billing_toolkit.simulator.problems import Reply, customer_not_found, invoice_not_found
from billing_toolkit.simulator.representations import invoice_view
from billing_toolkit.simulator.state.models import Invoice


def _sort_key(invoice: Invoice) -> str:
    return f"{invoice.issue_date.isoformat()}|{invoice.invoice_number}"


def list_invoices(ctx: OperationContext) -> Reply:
    account = ctx.owned_account()
    if account is None:
        return customer_not_found()
    query = ctx.request.query
    status, start, end = query.get("status"), query.get("period_from"), query.get("period_to")
    chosen = [
        invoice
        for invoice in account.invoices
        if (status is None or invoice.status == status)
        and (start is None or invoice.period_start.isoformat() >= start)
        and (end is None or invoice.period_start.isoformat() <= end)
    ]
    scope = f"invoices|{ctx.tenant_id}|{account.customer.account_number}|{status}|{start}|{end}"
    return page_reply(ctx, chosen, _sort_key, scope, invoice_view)


def get_invoice(ctx: OperationContext) -> Reply:
    """Exact number in the caller's tenant; a neighbour or another tenant's invoice is 404."""
    invoice = ctx.runtime.store.invoice(ctx.tenant_id, ctx.path("invoiceNumber"))
    if invoice is None:
        return invoice_not_found()
    return Reply(200, invoice_view(invoice))
