"""Dataset info: what a test needs to know about a state, as plain JSON-ready data.

A pure function of the state, shared by `billing-sim info`, the admin API and the pytest
plugin. Samples are picked by what is true *now* (after clock moves and payments), first
by account number, so the same state always names the same customers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from billing_toolkit.simulator.state.models import Account, BillingState, Customer, Invoice

SAMPLES: dict[str, Callable[[Account], bool]] = {
    "open_invoice": lambda a: (
        a.customer.status == "active"
        and any(i.status == "open" for i in a.invoices)
        and not any(i.status == "overdue" for i in a.invoices)
    ),
    "overdue": lambda a: any(i.status == "overdue" for i in a.invoices),
    "credit": lambda a: a.customer.credit_balance > 0,
    "suspended": lambda a: a.customer.status == "suspended",
    "cancelled": lambda a: a.customer.status == "cancelled",
    "ves": lambda a: a.customer.currency == "VES" and a.customer.status == "active",
    "business": lambda a: a.customer.customer_type == "business",
    "individual": lambda a: (
        a.customer.customer_type == "individual" and a.customer.status == "active"
    ),
    "pending_change": lambda a: a.customer.pending_change is not None,
}


SAMPLE_FIELDS = (
    "account_number",
    "name",
    "customer_type",
    "national_id",
    "phone",
    "currency",
    "status",
)


def customer_sample(customer: Customer) -> dict[str, Any]:
    """The identifiers a test needs to reach a customer through every lookup."""
    return {name: getattr(customer, name) for name in SAMPLE_FIELDS}


def _first_invoice(accounts: list[Account], status: str) -> str | None:
    for account in accounts:
        for invoice in sorted(account.invoices, key=lambda i: i.invoice_number):
            if invoice.status == status:
                return invoice.invoice_number
    return None


def _tenant_info(state: BillingState, tenant_id: str, other_tenant: str) -> dict[str, Any]:
    tenant = state.tenant(tenant_id)
    accounts = [state.accounts[tenant_id][n] for n in sorted(state.accounts[tenant_id])]
    invoices: list[Invoice] = [i for a in accounts for i in a.invoices]
    other_accounts = [state.accounts[other_tenant][n] for n in sorted(state.accounts[other_tenant])]
    samples = {
        role: next((customer_sample(a.customer) for a in accounts if predicate(a)), None)
        for role, predicate in SAMPLES.items()
    }
    return {
        "tenant_id": tenant.tenant_id,
        "name": tenant.name,
        "api_key": tenant.api_key,
        "customers": len(accounts),
        "invoices": len(invoices),
        "payments": sum(len(a.payments) for a in accounts),
        "plans": [plan.plan_id for plan in tenant.plans],
        "samples": samples,
        "invoice_numbers": {
            status: _first_invoice(accounts, status)
            for status in ("open", "overdue", "paid", "void")
        },
        "near_duplicate_invoices": [
            {"kind": pair.kind, "first": pair.first, "second": pair.second}
            for pair in state.near_duplicates.get(tenant_id, [])
        ],
        "other_tenant_invoice": _first_invoice(other_accounts, "paid"),
        "unknown_account_number": f"{tenant.account_prefix}00000001",
    }


def dataset_info(state: BillingState) -> dict[str, Any]:
    """Tenants, their API keys, sample customers and identifiers for tests."""
    ids = [tenant.tenant_id for tenant in state.tenants]
    return {
        "seed": state.seed,
        "customers_per_tenant": state.customers_per_tenant,
        "now": state.now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "tenants": [
            _tenant_info(state, tenant_id, ids[(index + 1) % len(ids)])
            for index, tenant_id in enumerate(ids)
        ],
    }
