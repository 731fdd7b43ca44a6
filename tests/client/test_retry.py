"""Retries only where safe, with jittered backoff, Retry-After honoured, inside the budget."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from decimal import Decimal

import httpx
import pytest
import respx

from billing_toolkit.client import (
    APIConnectionError,
    APITimeoutError,
    BillingClient,
    CircuitBreaker,
    CircuitOpenError,
    ContractViolationError,
    CustomerNotFoundError,
    RateLimitError,
    RetryPolicy,
    ServerError,
    Timeouts,
    ValidationError,
)
from billing_toolkit.client.breaker import BreakerConfig
from billing_toolkit.client.errors import AuthenticationError, BillingError, MalformedResponseError
from billing_toolkit.client.retry import is_retry_safe, is_retryable_failure
from billing_toolkit.contract.operations import load_contract
from tests.client import payloads
from tests.client.conftest import FakeClock

A = payloads.ACCOUNT
BALANCE = f"/v1/customers/{A}/balance"
CONTRACT = load_contract().operations
PAYMENTS = f"/v1/customers/{A}/payments"


# -- the pure policy ------------------------------------------------------------------------


def test_reads_and_keyed_payments_are_safe_to_repeat_and_an_unkeyed_write_is_not() -> None:
    assert all(is_retry_safe(operation) for operation in CONTRACT.values())
    payment = CONTRACT["createPayment"]
    unkeyed = replace(
        payment, parameters=tuple(p for p in payment.parameters if p.location != "header")
    )
    assert not is_retry_safe(unkeyed)


@pytest.mark.parametrize(
    ("error", "retryable"),
    [
        (APIConnectionError("reset"), True),
        (RateLimitError("slow down", status=429), True),
        (ServerError("bad gateway", status=502), True),
        (ServerError("unavailable", status=503), True),
        (ServerError("gateway timeout", status=504), True),
        (ServerError("bug", status=500), False),
        (APITimeoutError("slow"), False),
        (ContractViolationError("odd"), False),
        (MalformedResponseError("cut"), False),
        (CircuitOpenError("open"), False),
        (CustomerNotFoundError("no"), False),
        (ValidationError("bad"), False),
        (AuthenticationError("key"), False),
    ],
    ids=lambda v: (
        type(v).__name__ + (f"-{v.status}" if getattr(v, "status", None) else "")
        if isinstance(v, BillingError)
        else str(v)
    ),
)
def test_which_failures_are_retryable(error: BillingError, retryable: bool) -> None:
    assert is_retryable_failure(error) is retryable


def test_backoff_is_jittered_exponential_and_capped() -> None:
    policy = RetryPolicy(max_attempts=10, base_delay=0.2, max_delay=1.0)
    rng = random.Random(1)
    for retry, ceiling in [(1, 0.2), (2, 0.4), (3, 0.8), (4, 1.0), (8, 1.0)]:
        delays = {policy.backoff(retry, rng) for _ in range(50)}
        assert min(delays) >= ceiling / 2 and max(delays) <= ceiling
        assert len(delays) > 1, "jittered, not a fixed wait"


def test_retry_after_wins_when_longer_and_gives_up_when_the_budget_cannot_cover_it() -> None:
    policy, op, rng = RetryPolicy(), CONTRACT["getBalance"], random.Random(3)
    limited = RateLimitError("slow down", status=429, retry_after=4.0)
    assert policy.delay_before_retry(op, limited, 1, remaining=10.0, rng=rng) == 4.0
    assert policy.delay_before_retry(op, limited, 1, remaining=3.0, rng=rng) is None
    assert (
        policy.delay_before_retry(op, limited, policy.max_attempts, remaining=10.0, rng=rng) is None
    )


# -- through the client -----------------------------------------------------------------------


def sequence(*answers: httpx.Response | Exception) -> Iterator[httpx.Response | Exception]:
    return iter(answers)


def test_503_then_success_waits_at_least_retry_after(
    api: respx.MockRouter, make_client: Callable[..., BillingClient], clock: FakeClock
) -> None:
    route = api.get(BALANCE).mock(
        side_effect=[
            payloads.problem(503, "unavailable", Retry_After="2"),
            payloads.ok(payloads.balance()),
        ]
    )
    assert make_client().get_balance(A).net_balance == Decimal("45.00")
    assert route.call_count == 2
    assert len(clock.sleeps) == 1 and clock.sleeps[0] >= 2.0


@pytest.mark.parametrize(
    "failure",
    [
        httpx.ConnectError("refused"),
        payloads.problem(502, "unavailable"),
        payloads.problem(504, "unavailable"),
        payloads.problem(429, "rate_limited", Retry_After="0"),
    ],
    ids=["connection", "502", "504", "429"],
)
def test_retryable_failures_are_retried_until_success(
    failure: httpx.Response | Exception,
    api: respx.MockRouter,
    make_client: Callable[..., BillingClient],
    clock: FakeClock,
) -> None:
    route = api.get(BALANCE).mock(side_effect=[failure, failure, payloads.ok(payloads.balance())])
    make_client().get_balance(A)
    assert route.call_count == 3
    assert len(clock.sleeps) == 2 and clock.sleeps[1] > 0


def test_gives_up_after_max_attempts_with_the_last_failure(
    api: respx.MockRouter, make_client: Callable[..., BillingClient], clock: FakeClock
) -> None:
    route = api.get(BALANCE).mock(return_value=payloads.problem(502, "unavailable"))
    with pytest.raises(ServerError):
        make_client(retry=RetryPolicy(max_attempts=3)).get_balance(A)
    assert route.call_count == 3 and len(clock.sleeps) == 2


@pytest.mark.parametrize(
    "failure",
    [
        payloads.problem(500, "internal"),
        httpx.ReadTimeout("slow"),
        payloads.problem(404, "customer_not_found"),
        payloads.problem(401, "unauthorized"),
        httpx.Response(200, text="<html>", headers={"X-Request-Id": "r"}),
    ],
    ids=["500", "timeout", "business 404", "401", "malformed"],
)
def test_other_failures_are_never_retried(
    failure: httpx.Response | Exception,
    api: respx.MockRouter,
    make_client: Callable[..., BillingClient],
    clock: FakeClock,
) -> None:
    route = api.get(BALANCE).mock(side_effect=[failure, payloads.ok(payloads.balance())])
    with pytest.raises(BillingError):
        make_client().get_balance(A)
    assert route.call_count == 1 and clock.sleeps == []


def test_payment_is_retried_with_the_same_idempotency_key_and_body(
    api: respx.MockRouter, make_client: Callable[..., BillingClient]
) -> None:
    route = api.post(PAYMENTS).mock(
        side_effect=[
            httpx.ReadError("reset"),
            payloads.problem(503, "unavailable", Retry_After="0"),
            payloads.ok(payloads.payment(), status=201, **{"Idempotent-Replayed": "true"}),
        ]
    )
    paid = make_client().create_payment(
        A, amount=Decimal("32.48"), currency="USD", method="pago_movil"
    )
    assert paid.payment_id == "PAY-0000012345"
    sent = [call.request for call in route.calls]
    assert len(sent) == 3
    assert len({r.headers["Idempotency-Key"] for r in sent}) == 1
    assert len({r.content for r in sent}) == 1


def test_a_dead_api_costs_at_most_the_budget_not_timeout_times_attempts(
    api: respx.MockRouter, make_client: Callable[..., BillingClient], clock: FakeClock
) -> None:
    def refused_after_connect_timeout(request: httpx.Request) -> httpx.Response:
        clock.advance(request.extensions["timeout"]["connect"])
        raise httpx.ConnectError("refused")

    route = api.get(BALANCE).mock(side_effect=refused_after_connect_timeout)
    client = make_client(
        timeouts=Timeouts(connect=2.0, read=5.0, total=5.0),
        retry=RetryPolicy(max_attempts=10, base_delay=0.5, max_delay=1.0),
    )
    start = clock.now
    with pytest.raises(APIConnectionError):
        client.get_balance(A)
    assert clock.now - start <= 5.0
    assert 1 < route.call_count < 10
    timeouts = [call.request.extensions["timeout"]["connect"] for call in route.calls]
    assert timeouts[0] == 2.0 and timeouts[-1] < 2.0, "later attempts get only what is left"


def test_a_retry_after_beyond_the_budget_fails_at_once(
    api: respx.MockRouter, make_client: Callable[..., BillingClient], clock: FakeClock
) -> None:
    route = api.get(BALANCE).mock(
        return_value=payloads.problem(429, "rate_limited", Retry_After="60")
    )
    with pytest.raises(RateLimitError) as caught:
        make_client(timeouts=Timeouts(total=10.0)).get_balance(A)
    assert caught.value.retry_after == 60.0
    assert route.call_count == 1 and clock.sleeps == []


class DripStream(httpx.SyncByteStream):
    """A body that arrives one chunk per `seconds` of the fake clock."""

    def __init__(self, body: bytes, clock: FakeClock, seconds: float) -> None:
        self.body, self.clock, self.seconds = body, clock, seconds

    def __iter__(self) -> Iterator[bytes]:
        for start in range(0, len(self.body), 16):
            self.clock.advance(self.seconds)
            yield self.body[start : start + 16]


def test_a_drip_fed_body_is_cut_off_at_the_budget(
    api: respx.MockRouter, make_client: Callable[..., BillingClient], clock: FakeClock
) -> None:
    body = httpx.Response(200, json=payloads.balance()).content
    api.get(BALANCE).mock(
        return_value=httpx.Response(
            200,
            headers={"Content-Type": "application/json", "X-Request-Id": "r"},
            stream=DripStream(body, clock, seconds=1.0),
        )
    )
    start = clock.now
    with pytest.raises(APITimeoutError):
        make_client(timeouts=Timeouts(read=5.0, total=4.0)).get_balance(A)
    assert clock.now - start <= 5.0


def test_nothing_is_retried_once_the_circuit_opens(
    api: respx.MockRouter, make_client: Callable[..., BillingClient], clock: FakeClock
) -> None:
    route = api.get(BALANCE).mock(side_effect=httpx.ConnectError("refused"))
    breaker = CircuitBreaker(BreakerConfig(failure_threshold=2, reset_timeout=30.0), clock=clock)
    client = make_client(breaker=breaker, retry=RetryPolicy(max_attempts=5))
    with pytest.raises(APIConnectionError):
        client.get_balance(A)
    assert route.call_count == 2 and len(clock.sleeps) == 1, "no wait once the circuit opened"
    with pytest.raises(CircuitOpenError):
        client.get_balance(A)
    assert route.call_count == 2 and len(clock.sleeps) == 1
