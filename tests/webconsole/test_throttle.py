"""The sign-in throttle's arithmetic on a fake clock: 200 guesses from one address take
hours, the right token from a clean address works at once, a success clears only its own
address, and counters start over a day after the last failure."""

from __future__ import annotations

from billing_toolkit.webconsole.throttle import (
    FORGET_AFTER_S,
    FREE_FAILURES,
    MemoryFailureCounts,
    SignInThrottle,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _guess(throttle: SignInThrottle, clock: FakeClock, guesses: int, address: str) -> float:
    """An attacker that waits exactly as long as it is told: the seconds `guesses` cost."""
    started = clock.now
    for _ in range(guesses):
        clock.now += throttle.wait_s(address, "alice")
        assert throttle.wait_s(address, "alice") == 0
        throttle.failed(address, "alice")
    return clock.now - started


def test_two_hundred_guesses_take_hours_and_a_clean_address_signs_in_at_once() -> None:
    clock = FakeClock()
    throttle = SignInThrottle(MemoryFailureCounts(), clock)
    assert _guess(throttle, clock, 200, "10.0.0.66") > 3600
    assert throttle.wait_s("10.0.0.66", "alice") > 0
    assert throttle.wait_s("10.0.0.7", "alice") == 0  # the agent herself, elsewhere


def test_the_first_failures_are_free_then_the_wait_doubles() -> None:
    clock = FakeClock()
    throttle = SignInThrottle(MemoryFailureCounts(), clock)
    waits = []
    for _ in range(FREE_FAILURES + 3):
        waits.append(throttle.wait_s("a"))
        clock.now += waits[-1]
        throttle.failed("a")
    assert waits == [0] * FREE_FAILURES + [1, 2, 4]


def test_a_success_clears_its_own_address_only() -> None:
    clock = FakeClock()
    throttle = SignInThrottle(MemoryFailureCounts(), clock)
    for address in ("a", "b"):
        for _ in range(FREE_FAILURES + 1):
            throttle.failed(address)
    throttle.succeeded("a")
    assert throttle.wait_s("a") == 0 and throttle.wait_s("b") > 0


def test_guesses_spread_over_addresses_hold_back_the_failing_ones() -> None:
    clock = FakeClock()
    throttle = SignInThrottle(MemoryFailureCounts(), clock)
    for index in range(40):  # two guesses from each of 40 addresses: under every address limit
        throttle.failed(f"10.1.0.{index}", "alice")
        throttle.failed(f"10.1.0.{index}", "alice")
    assert throttle.wait_s("10.1.0.3", "alice") > 0
    assert throttle.wait_s("10.1.0.3", "bob") == 0 and throttle.wait_s("10.9.9.9", "alice") == 0


def test_counters_start_over_a_day_after_the_last_failure() -> None:
    clock = FakeClock()
    throttle = SignInThrottle(MemoryFailureCounts(), clock)
    for _ in range(FREE_FAILURES + 10):
        throttle.failed("a")
    clock.now += FORGET_AFTER_S + 1
    assert throttle.wait_s("a") == 0
    throttle.failed("a")
    assert throttle.wait_s("a") == 0  # one failure again, not sixteen
