"""The failure-rate window on its own: counting, ageing, the rate rule, config checks."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from billing_toolkit.client.breaker import BreakerConfig
from billing_toolkit.client.breaker_window import (
    EMPTY_WINDOW,
    FailureRateTrip,
    OutcomeWindow,
    recorded,
    tripped,
)

MINUTE = FailureRateTrip(threshold=0.5, minimum_calls=4, window_seconds=60.0, buckets=60)


def record_all(outcomes: list[tuple[float, bool]], trip: FailureRateTrip = MINUTE) -> OutcomeWindow:
    window = EMPTY_WINDOW
    for now, failed in outcomes:
        window = recorded(window, now, failed, trip)
    return window


def counts(window: OutcomeWindow) -> tuple[int, int]:
    return window.calls, window.failures


def test_outcomes_in_the_window_are_counted() -> None:
    window = record_all([(1000.0, True), (1000.2, False), (1003.5, True), (1030.0, False)])
    assert counts(window) == (4, 2)


def test_an_outcome_leaves_the_window_when_its_bucket_does() -> None:
    window = record_all([(1000.0, True), (1000.9, True)])
    assert counts(recorded(window, 1059.99, False, MINUTE)) == (3, 2), "59.99 s later: inside"
    assert counts(recorded(window, 1060.0, False, MINUTE)) == (1, 0), "60 s later: both gone"


def test_a_window_idle_for_longer_than_itself_starts_empty() -> None:
    window = record_all([(float(t), True) for t in range(1000, 1010)])
    later = recorded(window, 5000.0, False, MINUTE)
    assert counts(later) == (1, 0)
    assert later.older == ()


def test_a_late_report_counts_in_the_newest_bucket_and_ages_with_it() -> None:
    """Thread A read the clock at 1000.9, thread B at 1001.0 and B recorded first."""
    window = record_all([(1001.0, False), (1000.9, True)])
    assert window.newest is not None and window.newest.index == 1001
    assert counts(window) == (2, 1)
    assert counts(recorded(window, 1060.5, False, MINUTE)) == (3, 1), "still inside at 1060.5"
    assert counts(recorded(window, 1061.0, False, MINUTE)) == (1, 0)


@pytest.mark.parametrize("threshold", [0.1, 0.3, 0.5, 0.7, 1.0])
def test_the_rate_trips_exactly_at_the_threshold_and_not_below(threshold: float) -> None:
    trip = FailureRateTrip(threshold=threshold, minimum_calls=10)
    at = round(threshold * 10)
    below = record_all([(1000.0, i < at - 1) for i in range(10)], trip)
    exact = record_all([(1000.0, i < at) for i in range(10)], trip)
    assert counts(exact) == (10, at) and tripped(exact, trip)
    assert counts(below) == (10, at - 1) and not tripped(below, trip)


def test_the_rate_is_not_judged_below_the_minimum_calls() -> None:
    trip = FailureRateTrip(threshold=0.5, minimum_calls=10)
    assert not tripped(record_all([(1000.0, True)], trip), trip), "1 failure of 1 call"
    assert not tripped(record_all([(1000.0, True)] * 9, trip), trip)
    assert tripped(record_all([(1000.0, True)] * 10, trip), trip)


def test_the_default_trip_is_half_of_ten_calls_over_a_minute() -> None:
    trip = FailureRateTrip()
    assert (trip.threshold, trip.minimum_calls, trip.window_seconds, trip.bucket_seconds) == (
        0.5,
        10,
        60.0,
        1.0,
    )


# -- a naive recount agrees with the bucketed window, whatever the outcomes ------------------

steps = st.lists(
    st.tuples(st.integers(min_value=-3, max_value=40), st.booleans()), max_size=80
)  # (quarter-seconds since the previous outcome, may be negative: a late report; failed?)


@given(
    steps=steps,
    buckets=st.integers(min_value=1, max_value=8),
    window_seconds=st.sampled_from([0.5, 1.0, 3.0, 5.0]),
)
def test_the_window_always_equals_a_naive_recount(
    steps: list[tuple[int, bool]], buckets: int, window_seconds: float
) -> None:
    trip = FailureRateTrip(
        threshold=0.5, minimum_calls=1, window_seconds=window_seconds, buckets=buckets
    )
    window = EMPTY_WINDOW
    seen: list[tuple[int, bool]] = []  # (bucket each outcome was counted in, failed)
    now = 1000.0
    for quarters, failed in steps:
        now += quarters / 4
        window = recorded(window, now, failed, trip)
        newest = max([trip.bucket_of(now), *(bucket for bucket, _ in seen)])
        seen.append((newest, failed))
        inside = [failed for bucket, failed in seen if bucket > newest - buckets]
        assert counts(window) == (len(inside), sum(inside))
        kept = [*window.older, *([window.newest] if window.newest else [])]
        assert sum(b.calls for b in kept) == window.calls, "totals match the buckets"
        assert len(kept) <= buckets, "memory is bounded by the bucket count"
        assert [b.index for b in kept] == sorted({b.index for b in kept})


# -- a bad setting fails at construction, naming the field ------------------------------------


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"threshold": 0}, "FailureRateTrip.threshold"),
        ({"threshold": 1.5}, "FailureRateTrip.threshold"),
        ({"threshold": 50}, "FailureRateTrip.threshold"),
        ({"threshold": math.nan}, "FailureRateTrip.threshold"),
        ({"threshold": "0.5"}, "FailureRateTrip.threshold"),
        ({"threshold": True}, "FailureRateTrip.threshold"),
        ({"minimum_calls": 0}, "FailureRateTrip.minimum_calls"),
        ({"minimum_calls": 2.5}, "FailureRateTrip.minimum_calls"),
        ({"window_seconds": 0}, "FailureRateTrip.window_seconds"),
        ({"window_seconds": -60.0}, "FailureRateTrip.window_seconds"),
        ({"window_seconds": math.inf}, "FailureRateTrip.window_seconds"),
        ({"buckets": 0}, "FailureRateTrip.buckets"),
        ({"buckets": None}, "FailureRateTrip.buckets"),
    ],
)
def test_a_bad_rate_setting_names_its_field(settings: dict[str, object], field: str) -> None:
    with pytest.raises(ValueError, match=rf"^{field} must be"):
        FailureRateTrip(**settings)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"failure_threshold": 0}, "BreakerConfig.failure_threshold"),
        ({"failure_threshold": "5"}, "BreakerConfig.failure_threshold"),
        ({"reset_timeout": 0}, "BreakerConfig.reset_timeout"),
        ({"reset_timeout": math.nan}, "BreakerConfig.reset_timeout"),
        ({"failure_rate": 0.5}, "BreakerConfig.failure_rate"),
        ({"failure_threshold": None}, "BreakerConfig needs a trip"),
    ],
)
def test_a_bad_breaker_setting_names_its_field(settings: dict[str, object], field: str) -> None:
    with pytest.raises(ValueError, match=rf"^{field}"):
        BreakerConfig(**settings)  # type: ignore[arg-type]


def test_the_default_config_is_the_consecutive_trip_alone() -> None:
    assert BreakerConfig() == BreakerConfig(failure_threshold=5, reset_timeout=30.0)
    assert BreakerConfig().failure_rate is None
    assert BreakerConfig(failure_threshold=None, failure_rate=MINUTE).failure_threshold is None
