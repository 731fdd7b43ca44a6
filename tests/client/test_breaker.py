"""Circuit breaker: each transition, the pure rules, and safety under threads and asyncio."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import respx

from billing_toolkit.client import (
    AsyncBillingClient,
    BillingClient,
    CircuitBreaker,
    CircuitOpenError,
    CircuitState,
    CustomerNotFoundError,
    RetryPolicy,
    ServerError,
)
from billing_toolkit.client.breaker import (
    Admission,
    BreakerConfig,
    BreakerSnapshot,
    abandoned,
    admit,
    failed,
    succeeded,
)
from tests.client import payloads
from tests.client.conftest import FakeClock
from tests.client.together import admitted, at_once

THRESHOLD = 3
CONFIG = BreakerConfig(failure_threshold=THRESHOLD, reset_timeout=30.0)
A = payloads.ACCOUNT
BALANCE = f"/v1/customers/{A}/balance"
CLOSED, OPEN, HALF_OPEN = CircuitState.CLOSED, CircuitState.OPEN, CircuitState.HALF_OPEN


# -- pure transitions ---------------------------------------------------------------------


def fail_times(snapshot: BreakerSnapshot, times: int, now: float = 0.0) -> BreakerSnapshot:
    for _ in range(times):
        snapshot = failed(snapshot, snapshot.generation, now, CONFIG)
    return snapshot


def test_closed_opens_after_n_consecutive_failures_only() -> None:
    almost = fail_times(BreakerSnapshot(), THRESHOLD - 1)
    assert almost.state is CLOSED
    assert succeeded(almost, almost.generation).consecutive_failures == 0, (
        "a success resets the streak"
    )
    opened = fail_times(almost, 1, now=5.0)
    assert (opened.state, opened.opened_at) == (OPEN, 5.0)


def test_open_rejects_until_the_reset_timeout_then_admits_one_probe() -> None:
    opened = fail_times(BreakerSnapshot(), 3, now=100.0)
    assert admit(opened, 129.9, CONFIG) == (opened, Admission.REJECT)
    half, admission = admit(opened, 130.0, CONFIG)
    assert (half.state, admission, half.probe_in_flight) == (HALF_OPEN, Admission.PROBE, True)
    assert admit(half, 131.0, CONFIG)[1] is Admission.REJECT, "one probe at a time"


def test_probe_success_closes_and_probe_failure_reopens_at_once() -> None:
    half, _ = admit(fail_times(BreakerSnapshot(), 3), 30.0, CONFIG)
    closed = succeeded(half, half.generation)
    assert (closed.state, closed.consecutive_failures) == (CLOSED, 0)
    reopened = failed(half, half.generation, 31.0, CONFIG)
    assert (reopened.state, reopened.opened_at) == (OPEN, 31.0)


def test_outcomes_of_an_earlier_generation_are_ignored() -> None:
    start = BreakerSnapshot()
    opened = fail_times(start, 3)
    half, _ = admit(opened, 30.0, CONFIG)
    assert succeeded(half, start.generation) == half, "a slow old call cannot close the circuit"
    assert failed(half, start.generation, 31.0, CONFIG) == half


def test_an_abandoned_probe_frees_the_slot() -> None:
    half, _ = admit(fail_times(BreakerSnapshot(), 3), 30.0, CONFIG)
    freed = abandoned(half, half.generation)
    assert (freed.state, freed.probe_in_flight) == (HALF_OPEN, False)
    assert admit(freed, 30.0, CONFIG)[1] is Admission.PROBE


# -- the thread-safe wrapper ----------------------------------------------------------------


def test_every_transition_calls_back_and_logs(
    clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    seen: list[tuple[CircuitState, CircuitState]] = []
    breaker = CircuitBreaker(CONFIG, clock=clock, on_state_change=lambda a, b: seen.append((a, b)))
    caplog.set_level(logging.INFO, logger="billing_toolkit.client.breaker")
    for _ in range(3):
        breaker.record_failure(breaker.acquire())
    with pytest.raises(CircuitOpenError) as caught:
        breaker.acquire()
    assert caught.value.retry_after == 30.0
    clock.advance(30.0)
    probe = breaker.acquire()
    breaker.record_failure(probe)
    clock.advance(30.0)
    breaker.record_success(breaker.acquire())
    assert seen == [
        (CLOSED, OPEN),
        (OPEN, HALF_OPEN),
        (HALF_OPEN, OPEN),
        (OPEN, HALF_OPEN),
        (HALF_OPEN, CLOSED),
    ]
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0] == "circuit breaker billing: closed -> open"
    assert len(lines) == 5
    assert [r.levelno for r in caplog.records].count(logging.WARNING) == 2


def test_threads_in_half_open_send_one_probe(clock: FakeClock) -> None:
    breaker = CircuitBreaker(CONFIG, clock=clock)
    for _ in range(3):
        breaker.record_failure(breaker.acquire())
    clock.advance(30.0)
    assert at_once(16, lambda: admitted(breaker)).count(True) == 1


def test_the_lock_is_not_held_during_a_call(clock: FakeClock) -> None:
    """Two calls are in flight at once: a breaker that serialised calls would deadlock here."""
    both_inside = threading.Barrier(2)

    def handler(request: httpx.Request) -> httpx.Response:
        both_inside.wait(timeout=5)
        return payloads.ok(payloads.balance())

    breaker = CircuitBreaker(CONFIG, clock=clock)
    clients = [
        BillingClient(
            payloads.BASE_URL,
            "k",
            transport=httpx.MockTransport(handler),
            breaker=breaker,
            clock=clock,
        )
        for _ in range(2)
    ]
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda c: c.get_balance(A), clients))
    assert len(results) == 2


# -- through the client ---------------------------------------------------------------------


def open_breaker(clock: FakeClock) -> CircuitBreaker:
    breaker = CircuitBreaker(CONFIG, clock=clock)
    for _ in range(THRESHOLD):
        breaker.record_failure(breaker.acquire())
    return breaker


def test_business_errors_never_trip_the_breaker(
    api: respx.MockRouter, make_client: Callable[..., BillingClient], clock: FakeClock
) -> None:
    api.get(BALANCE).mock(return_value=payloads.problem(404, "customer_not_found"))
    client = make_client(breaker=CircuitBreaker(CONFIG, clock=clock))
    for _ in range(10):
        with pytest.raises(CustomerNotFoundError):
            client.get_balance(A)
    assert client.breaker.state is CLOSED


def test_an_open_circuit_fails_fast_without_touching_the_network(
    api: respx.MockRouter, make_client: Callable[..., BillingClient], clock: FakeClock
) -> None:
    route = api.get(BALANCE).mock(return_value=payloads.ok(payloads.balance()))
    client = make_client(breaker=open_breaker(clock))
    with pytest.raises(CircuitOpenError):
        client.get_balance(A)
    assert route.call_count == 0 and clock.sleeps == []


def test_infrastructure_failures_open_it_and_a_successful_probe_closes_it(
    api: respx.MockRouter, make_client: Callable[..., BillingClient], clock: FakeClock
) -> None:
    route = api.get(BALANCE).mock(return_value=payloads.problem(500, "internal"))
    client = make_client(
        breaker=CircuitBreaker(CONFIG, clock=clock), retry=RetryPolicy(max_attempts=1)
    )
    for _ in range(3):
        with pytest.raises(ServerError):
            client.get_balance(A)
    assert client.breaker.state is OPEN
    clock.advance(30.0)
    route.mock(return_value=payloads.problem(404, "customer_not_found"))
    with pytest.raises(CustomerNotFoundError):
        client.get_balance(A)
    assert client.breaker.state is CLOSED, "a business answer proves the API is back"


@pytest.mark.anyio
async def test_two_tasks_in_half_open_send_one_probe(
    api: respx.MockRouter, make_async_client: Callable[..., AsyncBillingClient], clock: FakeClock
) -> None:
    release = asyncio.Event()

    async def slow_probe(request: httpx.Request) -> httpx.Response:
        await release.wait()
        return payloads.ok(payloads.balance())

    route = api.get(BALANCE).mock(side_effect=slow_probe)
    breaker = open_breaker(clock)
    clock.advance(30.0)
    async with make_async_client(breaker=breaker) as client:
        probe = asyncio.create_task(client.get_balance(A))
        await asyncio.sleep(0)
        with pytest.raises(CircuitOpenError):
            await client.get_balance(A)
        release.set()
        assert (await probe).account_number == A
    assert route.call_count == 1 and breaker.state is CLOSED


@pytest.mark.anyio
async def test_a_cancelled_probe_does_not_leave_the_circuit_stuck(
    api: respx.MockRouter, make_async_client: Callable[..., AsyncBillingClient], clock: FakeClock
) -> None:
    async def never(request: httpx.Request) -> httpx.Response:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    api.get(BALANCE).mock(side_effect=never)
    breaker = open_breaker(clock)
    clock.advance(30.0)
    async with make_async_client(breaker=breaker) as client:
        probe = asyncio.create_task(client.get_balance(A))
        await asyncio.sleep(0)
        probe.cancel()
        with pytest.raises(asyncio.CancelledError):
            await probe
    assert breaker.state is HALF_OPEN and not breaker.snapshot.probe_in_flight
    breaker.acquire()  # the next caller may probe
