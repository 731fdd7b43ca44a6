"""Payment reports: recording one exactly once per idempotency key, reading and listing them.

A report is recorded as the subscriber made it, never judged on intake (a duplicate
reference or a method in the wrong currency is rejected at verification); the only refusal
is a payment date the rate series cannot convert (after today, or before the series).
"""

from __future__ import annotations

import hashlib
import json
from datetime import date
from decimal import Decimal
from typing import Any

import orjson

from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.handlers.paging import page_reply
from billing_toolkit.simulator.problems import (
    Reply,
    customer_not_found,
    idempotency_conflict,
    invalid,
    problem,
)
from billing_toolkit.simulator.representations import timestamp
from billing_toolkit.simulator.state.exchange_rates import rate_on
from billing_toolkit.simulator.state.models import PaymentReport
from billing_toolkit.simulator.state.money import to_wire
from billing_toolkit.simulator.state.store import NewReport
from billing_toolkit.simulator.validation.messages import FieldError


def payment_report_view(report: PaymentReport) -> dict[str, Any]:
    credited, rate = report.credited_amount, report.exchange_rate
    return {
        "report_id": report.report_id,
        "account_number": report.account_number,
        "status": report.status,
        "method": report.method,
        "amount": to_wire(report.amount),
        "currency": report.currency,
        "reference": report.reference,
        "bank": report.bank,
        "payment_date": report.payment_date.isoformat(),
        "payer_phone": report.payer_phone,
        "payer_national_id": report.payer_national_id,
        "created_at": timestamp(report.created_at),
        "resolved_at": None if report.resolved_at is None else timestamp(report.resolved_at),
        "rejection_reason": report.rejection_reason,
        "payment_id": report.payment_id,
        "credited_amount": None if credited is None else to_wire(credited),
        "exchange_rate": None if rate is None else str(rate),
    }


def _sort_key(report: PaymentReport) -> str:
    return f"{report.created_at.isoformat()}|{report.report_id}"


def list_payment_reports(ctx: OperationContext) -> Reply:
    account = ctx.owned_account()
    if account is None:
        return customer_not_found()
    scope = f"payment-reports|{ctx.tenant_id}|{account.customer.account_number}"
    return page_reply(ctx, account.payment_reports, _sort_key, scope, payment_report_view)


def get_payment_report(ctx: OperationContext) -> Reply:
    found = ctx.runtime.store.payment_report(ctx.tenant_id, ctx.path("reportId"))
    if found is None:
        return problem(404, "not_found", "No payment report has this id.")
    return Reply(200, payment_report_view(found))


def _render(report: PaymentReport) -> str:
    return orjson.dumps(payment_report_view(report)).decode()


def _refusal(payment_date: date, today: date, seed: int) -> FieldError | None:
    if payment_date > today:
        return FieldError("body.payment_date", f"{payment_date.isoformat()} is after today")
    if rate_on(seed, payment_date) is None:
        return FieldError(
            "body.payment_date", f"{payment_date.isoformat()} is before the first published rate"
        )
    return None


def create_payment_report(ctx: OperationContext) -> Reply:
    """Record a report (pending, books nothing); replays never record a second one."""
    account = ctx.owned_account()
    if account is None:
        return customer_not_found()
    body = ctx.request.body
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    fingerprint = hashlib.sha256(
        f"payment-report\n{account.customer.account_number}\n{canonical}".encode()
    ).hexdigest()
    store = ctx.runtime.store
    key = ctx.request.header["Idempotency-Key"]
    payment_date = date.fromisoformat(body["payment_date"])
    refused = _refusal(payment_date, store.now.date(), store.state.seed)
    new = NewReport(
        method=body["method"],
        amount=Decimal(body["amount"]),
        currency=body["currency"],
        reference=body["reference"],
        bank=body.get("bank"),
        payment_date=payment_date,
        payer_phone=body.get("payer_phone"),
        payer_national_id=body.get("payer_national_id"),
    )
    outcome = store.report_payment(ctx.tenant_id, account, key, fingerprint, new, _render, refused)
    if outcome.error is not None:
        return invalid([outcome.error], 422)
    if outcome.status == 409 or outcome.body is None:
        return idempotency_conflict()
    replayed = "true" if outcome.replayed else "false"
    return Reply(outcome.status, orjson.loads(outcome.body), {"Idempotent-Replayed": replayed})
