"""Idempotency as clients really retry: all at once, after a pause, changed, from elsewhere.

All of it happens on the run's one test payment (`checks/booking`, shared with the
idempotency scenario): its key was sent by several threads at the same moment (a client
that timed out and retried while the first request was still running); the probe replays
it after `--retry-delay` seconds, re-sends it with each body field changed and from the
other tenant, then sends a payment in the wrong currency and one without a key, which a
conformant API refuses (422, 400) without booking. Across all of it exactly one payment of
--payment-amount may be booked, and the balance and the payments listing must say so. What
"≥ 24 h" retention means cannot be waited for in a run: the report says which delay was
covered.
"""

from __future__ import annotations

from decimal import Decimal

from billing_toolkit.conformance.checks.booking import (
    CONCURRENT_RETRIES,
    Booking,
    book,
    booked_once,
    payment_id,
    post_payment,
    replayed,
)
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.http import Identity
from billing_toolkit.conformance.probes.base import Probe, ProbeContext, ProbeFindings, finding

OTHER_METHOD = "bank_transfer"


def _concurrency(found: ProbeFindings, booking: Booking) -> None:
    """Findings when the burst that booked the payment booked more than one, or answered
    something that is neither the payment nor a retryable error."""
    concurrency = finding(found, "idempotency.concurrency")
    concurrency.inspected += len(booking.replies)
    ids = sorted({pid for pid in map(payment_id, booking.replies) if pid is not None})
    if len(ids) > 1:
        concurrency.add(
            f"{CONCURRENT_RETRIES} concurrent requests with one Idempotency-Key booked "
            f"{len(ids)} payments ({', '.join(ids)})",
            next(r for r in booking.replies if payment_id(r) == ids[-1]),
        )
    for reply in booking.replies:
        if reply.status != 201 and reply.status not in (409, 429) and reply.status < 500:
            concurrency.add(
                f"a concurrent retry was answered {reply.describe()}, neither the payment nor "
                "a retryable error",
                reply,
            )


def _expect(
    found: ProbeFindings, rule_id: str, reply: Exchange, statuses: tuple[int, ...], what: str
) -> None:
    result = finding(found, rule_id)
    result.inspected += 1
    if reply.status not in statuses:
        wanted = " or ".join(str(s) for s in statuses)
        result.add(f"{what}: expected {wanted}, got {reply.describe()}", reply)


def _retention(ctx: ProbeContext, found: ProbeFindings, booking: Booking, booked: str) -> None:
    ctx.sleep(ctx.retry_delay)
    delayed = post_payment(ctx.scenario, booking.key, booking.body)
    retention = finding(found, "idempotency.retention")
    retention.inspected += 1
    retention.passed_summary = (
        f"a replay {ctx.retry_delay:g} s later was served from the stored response (the "
        "contract promises ≥ 24 h; only this delay was covered)"
    )
    if payment_id(delayed) != booked or not replayed(delayed):
        retention.add(
            f"the same key and body {ctx.retry_delay:g} s later were not replayed: "
            f"{delayed.describe()} with payment {payment_id(delayed)} (stored: {booked})",
            delayed,
        )


def run(ctx: ProbeContext) -> ProbeFindings:
    scenario = ctx.scenario
    found: ProbeFindings = {}
    booking = book(scenario)
    _concurrency(found, booking)
    booked = booking.payment_id
    if booked is None:
        finding(found, "idempotency.replay").unable = "the kit's payment was not recorded"
        return found
    _retention(ctx, found, booking, booked)
    key, body = booking.key, booking.body
    changed = {
        "amount": f"{scenario.settings.payment_amount + Decimal('1.00'):.2f}",
        "method": OTHER_METHOD,
        "reference": f"{key}-changed",
    }
    for name, value in changed.items():
        reply = post_payment(scenario, key, {**body, name: value})
        _expect(
            found, "idempotency.fingerprint", reply, (409,), f"the same key with {name} changed"
        )
    others = sorted(scenario.facts.formats.currencies - {scenario.data.currency})
    if others:
        foreign = {**body, "currency": others[0], "reference": f"{key}-fx"}
        reply = post_payment(scenario, f"{key}-fx", foreign)
        _expect(
            found,
            "currency.payment",
            reply,
            (422,),
            f"a payment in {others[0]} on a {scenario.data.currency} account",
        )
    keyless = post_payment(scenario, None, {**body, "reference": f"{key}-nokey"})
    _expect(found, "idempotency.key_required", keyless, (400,), "a payment without Idempotency-Key")
    if scenario.settings.other_tenant_key:
        reply = post_payment(scenario, key, body, Identity.OTHER)
        _expect(
            found,
            "idempotency.tenant_scope",
            reply,
            (404,),
            "the other tenant's request with the same key, to this account",
        )
    else:
        finding(found, "idempotency.tenant_scope").unable = "needs --other-tenant-key"
    replay = finding(found, "idempotency.replay")
    replay.inspected += 1
    booked_once(scenario, booking, booked, replay)
    return found


PROBE = Probe(
    name="idempotency_retries",
    rules=(
        "idempotency.replay",
        "idempotency.fingerprint",
        "idempotency.tenant_scope",
        "idempotency.concurrency",
        "idempotency.retention",
        "idempotency.key_required",
        "currency.payment",
    ),
    run=run,
    writes=True,
)
