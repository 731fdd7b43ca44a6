"""Replaying a payment with the same Idempotency-Key moves money once.

WhatsApp retries, flaky mobile data and the client's own retry policy all resend payments;
Stripe's semantics are the reference: the first response for a key is stored and replayed,
the same key with another body is 409. This check writes: it records one payment of
--payment-amount on the test account, and only with --allow-writes.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

from billing_toolkit.conformance.calls import paging
from billing_toolkit.conformance.checks.base import Findings, Scenario, ScenarioContext
from billing_toolkit.conformance.checks.totals import decimals
from billing_toolkit.conformance.exchange import Exchange

PAYMENT_METHOD = "cash"  # accepted for USD and VES accounts alike


def _net_balance(ctx: ScenarioContext, findings: Findings) -> Decimal | None:
    reply = ctx.session.send(ctx.call("getBalance"))
    body = reply.json()
    value = decimals([body.get("net_balance")], ctx.facts) if isinstance(body, dict) else None
    if reply.status != 200 or value is None:
        findings.add(f"cannot read the balance around the payment: {reply.describe()}", reply)
        return None
    return value[0]


def _post(ctx: ScenarioContext, key: str | None, body: dict[str, Any]) -> Exchange:
    headers = {"Idempotency-Key": key} if key is not None else {}
    return ctx.session.send(replace(ctx.call("createPayment"), headers=headers), json_body=body)


def _occurrences(ctx: ScenarioContext, payment_id: str) -> tuple[int, Exchange]:
    listing = ctx.call("listPayments").with_params({paging(ctx.facts).limit: "100"})
    reply = ctx.session.send(listing)
    body = reply.json()
    data = body.get("data") if isinstance(body, dict) else None
    items = data if isinstance(data, list) else []
    return sum(1 for p in items if isinstance(p, dict) and p.get("payment_id") == payment_id), reply


def run(ctx: ScenarioContext) -> Findings:
    findings = Findings(passed_summary="a replay returns the same payment and moves money once")
    amount = ctx.settings.payment_amount
    key = f"conformance-{ctx.settings.run_id}"
    body = {
        "amount": f"{amount:.2f}",
        "currency": ctx.data.currency,
        "method": PAYMENT_METHOD,
        "reference": key,
    }
    before = _net_balance(ctx, findings)
    first = _post(ctx, key, body)
    findings.inspected += 1
    created = first.json()
    if first.status != 201 or not isinstance(created, dict) or "payment_id" not in created:
        findings.add(f"the payment was not recorded: expected 201, got {first.describe()}", first)
        return findings
    replay = _post(ctx, key, body)
    findings.inspected += 1
    if replay.status != 201 or replay.json() != created:
        findings.add(
            f"the replay did not return the stored 201 response: {replay.describe()}", replay
        )
    elif replay.response_header("Idempotent-Replayed") != "true":
        findings.add("the replay lacks the header Idempotent-Replayed: true", replay)
    after = _net_balance(ctx, findings)
    if before is not None and after is not None and after != before - amount:
        findings.add(
            f"net_balance went from {before} to {after}; one payment of {amount} should make it "
            f"{before - amount}",
            replay,
        )
    count, listing = _occurrences(ctx, created["payment_id"])
    if count != 1:
        findings.add(f"{created['payment_id']} is listed {count} times in the payments", listing)
    conflict = _post(ctx, key, {**body, "amount": f"{amount + Decimal('1.00'):.2f}"})
    findings.inspected += 1
    problem = conflict.json()
    if (
        conflict.status != 409
        or not isinstance(problem, dict)
        or problem.get("code") != "idempotency_conflict"
    ):
        findings.add(
            f"the same key with another amount: expected 409 idempotency_conflict, got "
            f"{conflict.describe()}",
            conflict,
        )
    keyless = _post(ctx, None, body)
    findings.inspected += 1
    if keyless.status != 400:
        findings.add(
            f"a payment without Idempotency-Key: expected 400, got {keyless.describe()}", keyless
        )
    return findings


SCENARIO = Scenario(
    name="idempotency",
    meaning=(
        "Writes (needs --allow-writes). One payment of --payment-amount (method cash) is "
        "posted to the test account with a fresh Idempotency-Key, then replayed: the replay "
        "is the stored 201 body with Idempotent-Replayed: true, net_balance drops by the "
        "amount exactly once, the payment is listed once; the same key with another amount is "
        "409 idempotency_conflict; a payment without the header is 400."
    ),
    remedy=(
        "Store (tenant, key) → request fingerprint and response in the same transaction that "
        "records the payment; on a repeat, compare fingerprints: equal → replay the stored "
        "response, different → 409. Keep keys at least 24 hours."
    ),
    run=run,
    writes=True,
)
