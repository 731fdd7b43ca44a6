"""Replaying a payment with the same Idempotency-Key moves money once.

WhatsApp retries, flaky mobile data and the client's own retry policy all resend payments;
Stripe's semantics are the reference: the first response for a key is stored and replayed,
the same key with another body is 409. This check writes, only with --allow-writes: it
uses the run's one test payment of --payment-amount (`checks/booking`, shared with the
idempotency probe) and sends nothing else that a conformant API would book.
"""

from __future__ import annotations

from decimal import Decimal

from billing_toolkit.conformance.checks.base import Findings, Scenario, ScenarioContext
from billing_toolkit.conformance.checks.booking import book, booked_once, post_payment, replayed


def run(ctx: ScenarioContext) -> Findings:
    findings = Findings(passed_summary="a replay returns the same payment and moves money once")
    booking = book(ctx)
    findings.inspected += 1
    created, booked = booking.created, booking.payment_id
    if created is None or booked is None:
        findings.add(
            f"the payment was not recorded: expected 201, got {booking.replies[0].describe()}",
            booking.replies[0],
        )
        return findings
    replay = post_payment(ctx, booking.key, booking.body)
    findings.inspected += 1
    if replay.status != 201 or replay.json() != created.json():
        findings.add(
            f"the replay did not return the stored 201 response: {replay.describe()}", replay
        )
    elif not replayed(replay):
        findings.add("the replay lacks the header Idempotent-Replayed: true", replay)
    changed = f"{ctx.settings.payment_amount + Decimal('1.00'):.2f}"
    conflict = post_payment(ctx, booking.key, {**booking.body, "amount": changed})
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
    keyless = post_payment(ctx, None, booking.body)
    findings.inspected += 1
    if keyless.status != 400:
        findings.add(
            f"a payment without Idempotency-Key: expected 400, got {keyless.describe()}", keyless
        )
    booked_once(ctx, booking, booked, findings)
    return findings


SCENARIO = Scenario(
    name="idempotency",
    meaning=(
        "Writes (needs --allow-writes). The run's one payment of --payment-amount (method "
        "cash, shared with the idempotency probe) is posted to the test account with a fresh "
        "Idempotency-Key, then replayed: the replay is the stored 201 body with "
        "Idempotent-Replayed: true; the same key with another amount is 409 "
        "idempotency_conflict; a payment without the header is 400; after all of it "
        "net_balance has dropped by the amount exactly once and the payment is listed once."
    ),
    remedy=(
        "Store (tenant, key) → request fingerprint and response in the same transaction that "
        "records the payment; on a repeat, compare fingerprints: equal → replay the stored "
        "response, different → 409. Keep keys at least 24 hours."
    ),
    run=run,
    writes=True,
)
