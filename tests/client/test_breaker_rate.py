"""The breaker with a failure-rate trip: when it opens, and that the rest works as before."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import respx
from hypothesis import given
from hypothesis import strategies as st

from billing_toolkit.client import BillingClient, RetryPolicy
from billing_toolkit.client.breaker import (
    BreakerConfig,
    BreakerSnapshot,
    CircuitBreaker,
    CircuitState,
    failed,
    succeeded,
)
from billing_toolkit.client.breaker_window import FailureRateTrip
from billing_toolkit.client.errors import CircuitOpenError, CustomerNotFoundError, ServerError
from tests.client import payloads
from tests.client.conftest import FakeClock
from tests.client.together import admitted, at_once

CLOSED, OPEN, HALF_OPEN = CircuitState.CLOSED, CircuitState.OPEN, CircuitState.HALF_OPEN
RATE = FailureRateTrip(threshold=0.5, minimum_calls=4, window_seconds=60.0, buckets=60)
RATE_ONLY = BreakerConfig(failure_threshold=None, reset_timeout=30.0, failure_rate=RATE)
BOTH = BreakerConfig(failure_threshold=3, reset_timeout=30.0, failure_rate=RATE)
BALANCE = f"/v1/customers/{payloads.ACCOUNT}/balance"


def feed(
    snapshot: BreakerSnapshot, outcomes: str, config: BreakerConfig, now: float = 1000.0
) -> BreakerSnapshot:
    """Report outcomes written as a string: F a failure, S a success (or a business "no")."""
    for outcome in outcomes:
        if outcome == "F":
            snapshot = failed(snapshot, snapshot.generation, now, config)
        else:
            snapshot = succeeded(snapshot, snapshot.generation, now, config)
    return snapshot


def report(breaker: CircuitBreaker, outcomes: str) -> None:
    for outcome in outcomes:
        ticket = breaker.acquire()
        if outcome == "F":
            breaker.record_failure(ticket)
        else:
            breaker.record_success(ticket)


# -- pure transitions ---------------------------------------------------------------------


def test_a_flaky_api_opens_on_the_rate_though_it_never_fails_twice_in_a_row() -> None:
    below = feed(BreakerSnapshot(), "SFSSFSS", RATE_ONLY)  # 2 of 7
    assert (below.state, below.window.calls, below.window.failures) == (CLOSED, 7, 2)
    assert feed(below, "F", RATE_ONLY).state is CLOSED, "3 of 8 is below half"
    opened = feed(below, "FF", RATE_ONLY, now=1010.0)  # 4 of 9: still below
    assert opened.state is CLOSED
    opened = feed(opened, "F", RATE_ONLY, now=1011.0)  # 5 of 10: half
    assert (opened.state, opened.opened_at) == (OPEN, 1011.0)


def test_three_failures_out_of_three_calls_do_not_open_below_the_minimum() -> None:
    assert feed(BreakerSnapshot(), "FFF", RATE_ONLY).state is CLOSED
    assert feed(BreakerSnapshot(), "FFFF", RATE_ONLY).state is OPEN


def test_failures_older_than_the_window_no_longer_count() -> None:
    old = feed(BreakerSnapshot(), "FFS", RATE_ONLY, now=1000.0)
    assert feed(old, "F", RATE_ONLY, now=1059.0).state is OPEN, "3 of 4 within the minute"
    aged = feed(old, "F", RATE_ONLY, now=1060.0)
    assert (aged.state, aged.window.calls, aged.window.failures) == (CLOSED, 1, 1)


def test_with_both_trips_whichever_fires_first_opens() -> None:
    assert feed(BreakerSnapshot(), "FFF", BOTH).state is OPEN, "the streak, below the minimum"
    assert feed(BreakerSnapshot(), "SFSF", BOTH).state is OPEN, "the rate, with no streak"
    assert feed(BreakerSnapshot(), "SSSFFSSSFF", BOTH).state is CLOSED


def test_the_default_config_does_not_count_a_window() -> None:
    snapshot = feed(BreakerSnapshot(), "FSFFSFF", BreakerConfig())
    assert (snapshot.state, snapshot.window.calls) == (CLOSED, 0)


def test_an_outcome_of_an_earlier_generation_is_not_counted() -> None:
    start = feed(BreakerSnapshot(), "S", RATE_ONLY)
    newer = feed(feed(start, "FFF", RATE_ONLY), "S", RATE_ONLY)
    reopened = feed(newer, "FFFF", RATE_ONLY)
    assert reopened.state is OPEN
    assert failed(reopened, start.generation, 1000.0, RATE_ONLY) == reopened
    assert succeeded(reopened, start.generation, 1000.0, RATE_ONLY) == reopened


def test_a_success_without_its_time_is_refused_by_a_rate_breaker() -> None:
    with pytest.raises(TypeError, match="time of every outcome"):
        succeeded(BreakerSnapshot(), 0, None, RATE_ONLY)


@given(st.lists(st.tuples(st.integers(min_value=0, max_value=30), st.booleans()), max_size=60))
def test_it_opens_at_the_first_failure_that_brings_the_naive_rate_to_the_threshold(
    steps: list[tuple[int, bool]],
) -> None:
    snapshot = BreakerSnapshot()
    history: list[tuple[float, bool]] = []
    now = 1000.0
    for seconds, failure in steps:
        now += seconds
        history.append((now, failure))
        inside = [f for t, f in history if RATE.bucket_of(t) > RATE.bucket_of(now) - RATE.buckets]
        should_open = failure and len(inside) >= 4 and 2 * sum(inside) >= len(inside)
        snapshot = feed(snapshot, "F" if failure else "S", RATE_ONLY, now=now)
        assert (snapshot.state is OPEN) == should_open
        if should_open:
            return


# -- through the thread-safe wrapper --------------------------------------------------------


Transition = tuple[CircuitState, CircuitState]


def cycle_after_tripping(config: BreakerConfig, trip: str, clock: FakeClock) -> list[Transition]:
    """Trip the breaker with `trip`, then a failed probe, then a successful one."""
    seen: list[Transition] = []
    breaker = CircuitBreaker(config, clock=clock, on_state_change=lambda a, b: seen.append((a, b)))
    report(breaker, trip)
    with pytest.raises(CircuitOpenError) as caught:
        breaker.acquire()
    assert caught.value.retry_after == 30.0
    for probe in "FS":
        clock.advance(30.0)
        report(breaker, probe)
    return seen


def test_a_rate_trip_goes_half_open_then_closed_or_open_like_a_streak(clock: FakeClock) -> None:
    by_rate = cycle_after_tripping(RATE_ONLY, "FSFSF", clock)
    by_streak = cycle_after_tripping(BreakerConfig(failure_threshold=3), "FFF", clock)
    assert by_rate == by_streak
    assert by_rate[0] == (CLOSED, OPEN) and by_rate[-1] == (HALF_OPEN, CLOSED)
    assert by_rate.count((HALF_OPEN, OPEN)) == 1, "the failed probe reopened at once"


def test_a_closed_circuit_does_not_reopen_on_failures_from_before_the_outage(
    clock: FakeClock,
) -> None:
    """The probe closes 30 s after opening, inside the minute the old failures happened in."""
    breaker = CircuitBreaker(RATE_ONLY, clock=clock)
    report(breaker, "SSFSFF")
    assert breaker.state is OPEN
    clock.advance(30.0)
    report(breaker, "S")
    assert (breaker.snapshot.window.calls, breaker.snapshot.window.failures) == (0, 0)
    report(breaker, "FSF")
    assert breaker.state is CLOSED, "2 of 3 since recovery: below the minimum of 4"


def test_threads_in_half_open_after_a_rate_trip_send_one_probe(clock: FakeClock) -> None:
    breaker = CircuitBreaker(RATE_ONLY, clock=clock)
    report(breaker, "FFFF")
    clock.advance(30.0)
    assert at_once(16, lambda: admitted(breaker)).count(True) == 1


def test_concurrent_outcomes_are_all_counted(clock: FakeClock) -> None:
    """Eight threads report 200 successes each: no count is lost between two transitions."""
    breaker = CircuitBreaker(RATE_ONLY, clock=clock)

    def succeed_many() -> None:
        for _ in range(200):
            breaker.record_success(breaker.acquire())

    at_once(8, succeed_many)
    assert breaker.snapshot.window.calls == 1600


# -- through the client ---------------------------------------------------------------------


def test_business_errors_count_as_successes_in_the_rate(
    api: respx.MockRouter, make_client: Callable[..., BillingClient], clock: FakeClock
) -> None:
    route = api.get(BALANCE)
    client = make_client(
        breaker=CircuitBreaker(RATE_ONLY, clock=clock), retry=RetryPolicy(max_attempts=1)
    )

    def call(status: int) -> None:
        code = "customer_not_found" if status == 404 else "internal"
        route.mock(return_value=payloads.problem(status, code))
        error = CustomerNotFoundError if status == 404 else ServerError
        with pytest.raises(error):
            client.get_balance(payloads.ACCOUNT)
        clock.advance(1.0)

    for status in (404, 500, 404, 404, 500):
        call(status)
    assert client.breaker.state is CLOSED, "2 failures of 5 answers"
    call(500)
    assert client.breaker.state is OPEN, "3 failures of 6 answers"
