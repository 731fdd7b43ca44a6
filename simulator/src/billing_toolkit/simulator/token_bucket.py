"""The token bucket's arithmetic, and nothing else: no clock, no lock, no HTTP.

A bucket holds up to `capacity` tokens and gains `per_second` of them continuously; a
request takes one. Time is passed in (the simulator's fault clock), so a test moves it
with `ManualClock` and the same requests always meet the same answers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


def _whole_up(seconds: float) -> int:
    """Seconds rounded up, after dropping float noise (1 / 0.05 must be 20, not 21)."""
    return math.ceil(round(seconds, 9))


@dataclass(frozen=True, slots=True)
class Verdict:
    allowed: bool
    remaining: int
    """Whole tokens left after this request (what `RateLimit`'s `r` says)."""
    retry_after_s: int
    """Whole seconds until one token is back (0 when allowed): what `Retry-After` says.
    Rounded up, so a client that waits exactly this long is served."""
    reset_s: int
    """Whole seconds until the bucket is full again (what `RateLimit`'s `t` says)."""


@dataclass(slots=True)
class TokenBucket:
    capacity: float
    per_second: float
    tokens: float
    updated: float

    @classmethod
    def full(cls, capacity: float, per_second: float, now: float) -> TokenBucket:
        return cls(capacity, per_second, capacity, now)

    def refill(self, now: float) -> None:
        """Tokens earned since the last look (a clock that went back earns none)."""
        if now > self.updated:
            self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.per_second)
            self.updated = now

    def peek(self, now: float) -> bool:
        """Whether a request now would be allowed (takes nothing)."""
        self.refill(now)
        return self.tokens >= 1.0

    def take(self, now: float) -> Verdict:
        """One token if there is one; the verdict either way."""
        self.refill(now)
        allowed = self.tokens >= 1.0
        if allowed:
            self.tokens -= 1.0
        missing = max(0.0, 1.0 - self.tokens)
        return Verdict(
            allowed=allowed,
            remaining=int(self.tokens),
            retry_after_s=0 if allowed else max(1, _whole_up(missing / self.per_second)),
            reset_s=_whole_up((self.capacity - self.tokens) / self.per_second),
        )
