"""The kit's one test payment: booked once per run, shared by every check that needs one.

Issue 14: with --allow-writes the kit books exactly one payment of --payment-amount. The
idempotency scenario and the idempotency probe both need a freshly booked payment (to
replay it, conflict with it, race on its key), so they share this one instead of each
booking their own: whichever runs first books it, the other reuses it. It is booked the
way clients really retry, the same fresh key sent from CONCURRENT_RETRIES threads at once,
so the race on a fresh key is observed on that one payment too. Every later request of
the kit reuses its key and body, or is one the contract says books nothing (a 409, a 422,
a 400 without a key, a 404 for the other tenant), and `booked_once` verifies that nothing
else was booked. Bias: book at most once; a failed booking is reported, never retried
with another key.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from billing_toolkit.conformance.calls import paging
from billing_toolkit.conformance.checks.base import Findings, ScenarioContext
from billing_toolkit.conformance.checks.totals import decimals
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.http import Identity
from billing_toolkit.conformance.writes import REPLAYED_HEADER

CONCURRENT_RETRIES = 4
PAYMENT_METHOD = "cash"  # accepted for USD and VES accounts alike


@dataclass(frozen=True)
class Booking:
    """The one payment: its key and body, the balance before it, every reply to the burst."""

    key: str
    body: dict[str, Any]
    balance_before: Decimal | None
    balance_reading: Exchange
    replies: tuple[Exchange, ...]

    @property
    def created(self) -> Exchange | None:
        """The reply that booked it: a 201 with a payment_id, the original before a replay."""
        booked = [reply for reply in self.replies if payment_id(reply) is not None]
        originals = [reply for reply in booked if not replayed(reply)]
        return (originals or booked or [None])[0]

    @property
    def payment_id(self) -> str | None:
        return payment_id(self.created) if self.created is not None else None


def book(ctx: ScenarioContext) -> Booking:
    """The run's one payment, booked on first use (every later call returns the same)."""
    if not ctx.payments:
        key = f"conformance-{ctx.settings.run_id}"
        body = payment_body(ctx, key)
        before, reading = net_balance(ctx)
        with ThreadPoolExecutor(max_workers=CONCURRENT_RETRIES) as pool:
            sent = pool.map(lambda _: post_payment(ctx, key, body), range(CONCURRENT_RETRIES))
            replies = tuple(sent)
        ctx.payments.append(Booking(key, body, before, reading, replies))
    return ctx.payments[0]


def payment_body(ctx: ScenarioContext, reference: str) -> dict[str, Any]:
    """The body of the kit's test payment: --payment-amount, in cash, in the account's
    currency, with `reference` (the idempotency key that sends it)."""
    return {
        "amount": f"{ctx.settings.payment_amount:.2f}",
        "currency": ctx.data.currency,
        "method": PAYMENT_METHOD,
        "reference": reference,
    }


def post_payment(
    ctx: ScenarioContext,
    key: str | None,
    body: dict[str, Any],
    identity: Identity = Identity.PRIMARY,
) -> Exchange:
    """POST `body` to the test account's payments with `key` (no header when None)."""
    headers = {"Idempotency-Key": key} if key is not None else {}
    request = replace(ctx.call("createPayment"), headers=headers)
    return ctx.session.send(request, identity=identity, json_body=body)


def payment_id(exchange: Exchange) -> str | None:
    """The payment a 201 carries, None for any other answer."""
    body = exchange.json()
    if exchange.status != 201 or not isinstance(body, dict) or "payment_id" not in body:
        return None
    return str(body["payment_id"])


def replayed(exchange: Exchange) -> bool:
    return exchange.response_header(REPLAYED_HEADER) == "true"


def net_balance(ctx: ScenarioContext) -> tuple[Decimal | None, Exchange]:
    """The test account's net_balance (None when unreadable) and the exchange that read it."""
    reply = ctx.session.send(ctx.call("getBalance"))
    body = reply.json()
    value = decimals([body.get("net_balance")], ctx.facts) if isinstance(body, dict) else None
    return (value[0] if reply.status == 200 and value else None), reply


def booked_once(ctx: ScenarioContext, booking: Booking, booked: str, findings: Findings) -> None:
    """Add to `findings` what shows that the kit's requests so far booked anything but the
    payment `booked`.

    Read after the requests that must book nothing: net_balance must have moved by the
    amount exactly once, and the first page of payments must list `booked` once and no
    other payment whose reference starts with the kit's key (every body the kit sends
    carries it).
    """
    amount = ctx.settings.payment_amount
    after, reading = net_balance(ctx)
    for moment, value, exchange in (
        ("before", booking.balance_before, booking.balance_reading),
        ("after", after, reading),
    ):
        if value is None:
            findings.add(
                f"cannot read the balance {moment} the payment: {exchange.describe()}", exchange
            )
    if (
        booking.balance_before is not None
        and after is not None
        and after != booking.balance_before - amount
    ):
        expected = booking.balance_before - amount
        moved = (
            f"net_balance went from {booking.balance_before} to {after}: the kit's requests "
            f"should have booked one payment of {amount} (making it {expected})"
        )
        findings.add(moved, reading)
    listing = ctx.session.send(
        ctx.call("listPayments").with_params({paging(ctx.facts).limit: "100"})
    )
    page = listing.json()
    data = page.get("data") if isinstance(page, dict) else None
    items = [item for item in (data if isinstance(data, list) else []) if isinstance(item, dict)]
    count = sum(1 for item in items if item.get("payment_id") == booked)
    if count != 1:
        findings.add(f"{booked} is listed {count} times in the payments", listing)
    others = sorted(
        str(item.get("payment_id"))
        for item in items
        if item.get("payment_id") != booked
        and str(item.get("reference") or "").startswith(booking.key)
    )
    if others:
        extra = (
            f"requests that must book nothing booked {len(others)} more payment(s) with a "
            f"reference starting {booking.key}: {', '.join(others)}"
        )
        findings.add(extra, listing)
