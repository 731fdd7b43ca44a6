"""When a failed call may be tried again, and after how long: a pure policy.

Two questions decide a retry, and both must say yes:

- Is the *operation* safe to repeat? Reads are. `createPayment` is, because it carries an
  Idempotency-Key: the server replays the first answer instead of charging twice. An
  operation with neither is never retried (bias: a duplicated write costs more than an
  escalation).
- Is the *failure* one that a second attempt can fix? A broken connection, a 502/503/504
  and a 429 can. A business answer cannot (asking again gets the same "no"); a timeout is
  not retried either: it has already spent its share of the budget, and a dead API shows
  up as timeouts, so retrying them is the stampede the breaker exists to prevent.

And the call's total budget must cover the wait: a dead API costs at most the budget, not
timeout x attempts. Randomness (jitter) comes from an injected RNG so tests are exact.
"""

from __future__ import annotations

import random
from typing import Protocol

from billing_toolkit.client.errors import (
    APIConnectionError,
    BillingError,
    RateLimitError,
    ServerError,
)
from billing_toolkit.client.options import Count, Delay, options
from billing_toolkit.contract.operations import Operation

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
"""Methods HTTP defines as idempotent: repeating them changes nothing more than once did."""

IDEMPOTENCY_HEADER = "Idempotency-Key"
RETRYABLE_SERVER_STATUSES = frozenset({502, 503, 504})
"""A gateway that could not reach the service, or a service that said "not now". A 500 is a
bug on the server: the same request will most likely hit it again."""


class RandomSource(Protocol):
    def random(self) -> float: ...


def is_retry_safe(operation: Operation) -> bool:
    """True for idempotent methods and for operations that take an Idempotency-Key."""
    return (
        operation.method in SAFE_METHODS
        or operation.parameter("header", IDEMPOTENCY_HEADER) is not None
    )


def is_retryable_failure(error: BillingError) -> bool:
    """True for failures another attempt can fix: connection, 502/503/504, 429."""
    if isinstance(error, APIConnectionError | RateLimitError):
        return True
    return isinstance(error, ServerError) and error.status in RETRYABLE_SERVER_STATUSES


@options
class RetryPolicy:
    """Jittered exponential backoff within a per-call budget.

    The n-th retry waits between half and all of `min(max_delay, base_delay * 2**(n-1))`
    ("equal jitter": spread out, but never a zero wait), or the server's Retry-After if that
    is longer. No retry happens when the wait would not leave time inside the budget.
    """

    max_attempts: Count = 3
    base_delay: Delay = 0.2
    max_delay: Delay = 2.0

    def __post_init__(self) -> None:
        if self.max_delay < self.base_delay:
            raise ValueError(
                f"RetryPolicy needs base_delay <= max_delay, got {self.base_delay!r} > "
                f"{self.max_delay!r}"
            )

    def backoff(self, retry_number: int, rng: RandomSource) -> float:
        """The jittered wait before retry number `retry_number` (1 for the first retry)."""
        ceiling = min(self.max_delay, self.base_delay * 2 ** (retry_number - 1))
        return ceiling / 2 + rng.random() * ceiling / 2

    def delay_before_retry(
        self,
        operation: Operation,
        error: BillingError,
        attempts_made: int,
        remaining: float,
        rng: RandomSource,
    ) -> float | None:
        """Seconds to wait before the next attempt, or None to give up now.

        `remaining` is what is left of the call's budget. Giving up when the wait would use
        it all (a Retry-After of 30 s against a 10 s budget, say) fails fast instead of
        sleeping towards a deadline that no attempt can meet.
        """
        if attempts_made >= self.max_attempts:
            return None
        if not (is_retry_safe(operation) and is_retryable_failure(error)):
            return None
        delay = self.backoff(attempts_made, rng)
        retry_after = getattr(error, "retry_after", None)
        if retry_after is not None:
            delay = max(delay, retry_after)
        return delay if delay < remaining else None


def default_rng() -> RandomSource:
    """A private RNG: jitter must differ between processes, not replay a global seed."""
    return random.Random()
