"""Payments: a customer's list, and recording a new one exactly once per idempotency key."""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal

from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.handlers.paging import page_reply
from billing_toolkit.simulator.problems import (
    Reply,
    customer_not_found,
    idempotency_conflict,
    invalid,
)
from billing_toolkit.simulator.representations import payment_view
from billing_toolkit.simulator.state.models import Payment
from billing_toolkit.simulator.validation.messages import FieldError


def _sort_key(payment: Payment) -> str:
    return f"{payment.received_at.isoformat()}|{payment.payment_id}"


def list_payments(ctx: OperationContext) -> Reply:
    account = ctx.owned_account()
    if account is None:
        return customer_not_found()
    scope = f"payments|{ctx.tenant_id}|{account.customer.account_number}"
    return page_reply(ctx, account.payments, _sort_key, scope, payment_view)


def _render(payment: Payment) -> str:
    return json.dumps(payment_view(payment), separators=(",", ":"), ensure_ascii=False)


def create_payment(ctx: OperationContext) -> Reply:
    """Apply a payment (oldest invoice first, rest to credit); replays never move money."""
    account = ctx.owned_account()
    if account is None:
        return customer_not_found()
    body = ctx.request.body
    customer = account.customer
    if body["currency"] != customer.currency:
        return invalid(
            [FieldError("body.currency", f"the account is billed in {customer.currency}")], 422
        )
    if body["method"] == "zelle" and customer.currency != "USD":
        return invalid([FieldError("body.method", "zelle is only accepted on USD accounts")], 422)
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    fingerprint = hashlib.sha256(f"{customer.account_number}\n{canonical}".encode()).hexdigest()
    outcome = ctx.runtime.store.pay(
        ctx.tenant_id,
        account,
        ctx.request.header["Idempotency-Key"],
        fingerprint,
        (Decimal(body["amount"]), body["method"], body.get("reference")),
        _render,
    )
    if outcome.status == 422:
        message = "the credit left over would exceed the largest amount the API can represent"
        return invalid([FieldError("body.amount", message)], 422)
    if outcome.status == 409 or outcome.body is None:
        return idempotency_conflict()
    replayed = "true" if outcome.replayed else "false"
    return Reply(outcome.status, json.loads(outcome.body), {"Idempotent-Replayed": replayed})
