"""When to try sending a reply again, and how long to wait first.

A failed send is retried when the failure may pass — the connection failed, the Graph API
answered 5xx, 408 or 429 — and not when it will not (400: the request is wrong; 401/403: the
token is). Waits grow exponentially with "equal jitter" (half fixed, half random) so replies
that failed together during an outage do not all retry in the same instant, are capped, and
honour a `Retry-After` the API gave, within the cap. The RNG is injected, so the waits are
reproducible in tests. Bias: give up after the budget and tell a person — a reply hours late
is worse than a person writing to the subscriber now.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SendBudget:
    attempts: int = 5
    base_delay: float = 1.0
    max_delay: float = 30.0

    def delay(
        self, failed_attempt: int, rng: random.Random, retry_after: float | None = None
    ) -> float:
        """Seconds to wait after attempt number `failed_attempt` (1-based) failed."""
        backoff = min(self.max_delay, self.base_delay * 2 ** (failed_attempt - 1))
        wait = backoff / 2 + rng.uniform(0, backoff / 2)
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.max_delay))
        return wait


def retryable_status(status: int) -> bool:
    """Whether an HTTP answer of the Graph API may succeed if the same request is repeated."""
    return status in (408, 429) or status >= 500


def retry_after_seconds(header: str | None) -> float | None:
    """`Retry-After` in seconds (the HTTP-date form is not used by the Graph API: ignored)."""
    if header is None:
        return None
    try:
        seconds = float(header)
    except ValueError:
        return None
    return seconds if seconds >= 0 else None
