"""Payments: a customer's list, and recording a new one exactly once per idempotency key."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from decimal import Decimal

import orjson

from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.handlers.paging import page_reply
from billing_toolkit.simulator.problems import (
    Reply,
    customer_not_found,
    idempotency_conflict,
    invalid,
)
from billing_toolkit.simulator.representations import payment_view
from billing_toolkit.simulator.state.models import Account, Payment
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
    """The stored response body; orjson refuses what no UTF-8 body could carry, so a
    payment that cannot be rendered is never recorded."""
    return orjson.dumps(payment_view(payment)).decode()


def _refusal(currency: str, method: str) -> Callable[[Account], FieldError | None]:
    """The business rules of a new payment, asked only after the idempotency lookup."""

    def refuse(account: Account) -> FieldError | None:
        billed_in = account.customer.currency
        if currency != billed_in:
            return FieldError("body.currency", f"the account is billed in {billed_in}")
        if method == "zelle" and billed_in != "USD":
            return FieldError("body.method", "zelle is only accepted on USD accounts")
        return None

    return refuse


def create_payment(ctx: OperationContext) -> Reply:
    """Apply a payment (oldest invoice first, rest to credit); replays never move money."""
    account = ctx.owned_account()
    if account is None:
        return customer_not_found()
    body = ctx.request.body
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    fingerprint = hashlib.sha256(
        f"{account.customer.account_number}\n{canonical}".encode()
    ).hexdigest()
    outcome = ctx.runtime.store.pay(
        ctx.tenant_id,
        account,
        ctx.request.header["Idempotency-Key"],
        fingerprint,
        (Decimal(body["amount"]), body["method"], body.get("reference")),
        _render,
        _refusal(body["currency"], body["method"]),
    )
    if outcome.error is not None:
        return invalid([outcome.error], 422)
    if outcome.status == 409 or outcome.body is None:
        return idempotency_conflict()
    replayed = "true" if outcome.replayed else "false"
    return Reply(outcome.status, orjson.loads(outcome.body), {"Idempotent-Replayed": replayed})
