"""The async twin follows the same rules as the sync client (they drive one shared flow)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from decimal import Decimal

import httpx
import pytest
import respx

from billing_toolkit.client import (
    APIConnectionError,
    APITimeoutError,
    AsyncBillingClient,
    ContractViolationError,
    CustomerNotFoundError,
    RetryPolicy,
    Timeouts,
)
from tests.client import payloads
from tests.client.conftest import FakeClock

pytestmark = pytest.mark.anyio
A = payloads.ACCOUNT
BALANCE = f"/v1/customers/{A}/balance"


async def test_retries_then_succeeds_with_money_as_decimal(
    api: respx.MockRouter, make_async_client: Callable[..., AsyncBillingClient], clock: FakeClock
) -> None:
    route = api.get(BALANCE).mock(
        side_effect=[
            httpx.ConnectError("refused"),
            payloads.problem(503, "unavailable", Retry_After="1"),
            payloads.ok(payloads.balance()),
        ]
    )
    async with make_async_client() as client:
        balance = await client.get_balance(A)
    assert balance.amount_due == Decimal("45.00")
    assert route.call_count == 3 and clock.sleeps[1] >= 1.0


async def test_failure_families(
    api: respx.MockRouter, make_async_client: Callable[..., AsyncBillingClient]
) -> None:
    api.get(BALANCE).mock(
        side_effect=[
            payloads.problem(404, "customer_not_found"),
            payloads.ok({"account_number": A}),
            httpx.ConnectError("refused"),
        ]
    )
    async with make_async_client(retry=RetryPolicy(max_attempts=1)) as client:
        for expected in (CustomerNotFoundError, ContractViolationError, APIConnectionError):
            with pytest.raises(expected):
                await client.get_balance(A)


async def test_payment_retry_reuses_the_key(
    api: respx.MockRouter, make_async_client: Callable[..., AsyncBillingClient]
) -> None:
    route = api.post(f"/v1/customers/{A}/payments").mock(
        side_effect=[httpx.ReadError("reset"), payloads.ok(payloads.payment(), status=201)]
    )
    async with make_async_client() as client:
        await client.create_payment(A, amount=Decimal("32.48"), currency="USD", method="cash")
    assert len({call.request.headers["Idempotency-Key"] for call in route.calls}) == 1
    assert route.call_count == 2


class AsyncDrip(httpx.AsyncByteStream):
    def __init__(self, body: bytes, clock: FakeClock) -> None:
        self.body, self.clock = body, clock

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for start in range(0, len(self.body), 8):
            self.clock.advance(1.0)
            yield self.body[start : start + 8]


async def test_a_drip_fed_body_is_cut_off_at_the_budget(
    api: respx.MockRouter, make_async_client: Callable[..., AsyncBillingClient], clock: FakeClock
) -> None:
    body = httpx.Response(200, json=payloads.balance()).content
    api.get(BALANCE).mock(
        return_value=httpx.Response(
            200,
            headers={"Content-Type": "application/json", "X-Request-Id": "r"},
            stream=AsyncDrip(body, clock),
        )
    )
    start = clock.now
    async with make_async_client(timeouts=Timeouts(total=3.0)) as client:
        with pytest.raises(APITimeoutError):
            await client.get_balance(A)
    assert clock.now - start <= 4.0
