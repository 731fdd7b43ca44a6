"""The failure-rate trip: what share of the last `window_seconds` of calls failed.

Why a time window and not the last N calls: "the API has been flaky for a minute" is a
statement about time. A count window stretches and shrinks with traffic: at 3 a.m. the
last 100 calls span hours, so failures of a long-gone incident still count; at the evening
peak they span seconds. A window of seconds on the injected clock means the same at any
traffic, and `minimum_calls` keeps a quiet window (one failure out of one call) from
deciding anything.

How: outcomes are counted in `buckets` equal slices of the window (one per second by
default). `OutcomeWindow` holds the bucket being filled, the older non-empty buckets still
inside the window and running totals, so recording an outcome is O(1) and the rate is read
off the totals; starting a new bucket rolls the window once (O(buckets)), which happens at
most once per bucket width whatever the traffic. Memory is bounded by the bucket count,
never by the number of calls.

Bias: forget early rather than late. An outcome leaves with its bucket, at most
`window_seconds` and at least one bucket width less after it happened; a failure older
than the window never counts, so an API that has recovered is not held to its past (a hard
outage is still caught at once by the consecutive trip, or by the rate as soon as the
minimum number of calls has failed).

Time in the window never goes backwards: an outcome reported late (another thread read the
clock after it and recorded first) is counted in the newest bucket.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from billing_toolkit.client.options import Count, Fraction, Seconds, options


@options
class FailureRateTrip:
    """Open when at least `threshold` (0.5 = half) of the infrastructure outcomes of the
    last `window_seconds` failed, once the window holds at least `minimum_calls` outcomes.

    The rate is compared as `failures / calls >= threshold`: both sides are the nearest
    float to the exact value, so exactly 3 failures in 10 calls meets `threshold=0.3`.
    """

    threshold: Fraction = 0.5
    minimum_calls: Count = 10
    window_seconds: Seconds = 60.0
    buckets: Count = 60

    @property
    def bucket_seconds(self) -> float:
        return self.window_seconds / self.buckets

    def bucket_of(self, now: float) -> int:
        """The slice of time `now` falls in; the window is the last `buckets` of them."""
        return math.floor(now / self.bucket_seconds)


@dataclass(frozen=True, slots=True)
class Bucket:
    index: int
    calls: int
    failures: int


@dataclass(frozen=True, slots=True)
class OutcomeWindow:
    """Outcomes still inside the window: `calls` and `failures` total `older` + `newest`."""

    newest: Bucket | None = None
    older: tuple[Bucket, ...] = ()
    calls: int = 0
    failures: int = 0


EMPTY_WINDOW = OutcomeWindow()


def recorded(
    window: OutcomeWindow, now: float, failed: bool, trip: FailureRateTrip
) -> OutcomeWindow:
    """`window` with one more outcome at `now`, and what fell out of it by then dropped."""
    failures = int(failed)
    index = trip.bucket_of(now)
    newest = window.newest
    if newest is not None and index <= newest.index:
        bucket = Bucket(newest.index, newest.calls + 1, newest.failures + failures)
        return OutcomeWindow(bucket, window.older, window.calls + 1, window.failures + failures)
    aged = _aged(window, index, trip)
    return OutcomeWindow(
        Bucket(index, 1, failures), aged.older, aged.calls + 1, aged.failures + failures
    )


def _aged(window: OutcomeWindow, index: int, trip: FailureRateTrip) -> OutcomeWindow:
    """`window` as seen from bucket `index`, before anything is counted in that bucket."""
    older = window.older if window.newest is None else (*window.older, window.newest)
    first_kept = index - trip.buckets + 1
    kept = next((at for at, bucket in enumerate(older) if bucket.index >= first_kept), len(older))
    gone = older[:kept]
    return OutcomeWindow(
        None,
        older[kept:],
        window.calls - sum(bucket.calls for bucket in gone),
        window.failures - sum(bucket.failures for bucket in gone),
    )


def tripped(window: OutcomeWindow, trip: FailureRateTrip) -> bool:
    """Enough calls in the window, and a share of failures at or above the threshold."""
    return window.calls >= trip.minimum_calls and window.failures / window.calls >= trip.threshold
