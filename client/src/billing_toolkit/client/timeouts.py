"""Per-call time limits: connect, read, and a total budget that bounds retries too."""

from __future__ import annotations

import httpx

from billing_toolkit.client.options import Seconds, options


@options
class Timeouts:
    """`connect` and `read` bound one attempt; `total` bounds the whole call, retries included.

    Each attempt gets `min(limit, what is left of total)`, and a body that trickles in slower
    than the budget is cut off between chunks, so a dead or drip-feeding API costs at most
    `total` (plus at most one chunk wait), never timeout x attempts.
    """

    connect: Seconds = 2.0
    read: Seconds = 5.0
    total: Seconds = 10.0

    def for_attempt(self, remaining: float) -> httpx.Timeout:
        """The httpx timeouts of one attempt that starts with `remaining` seconds of budget."""
        left = max(remaining, 0.001)
        read = min(self.read, left)
        return httpx.Timeout(connect=min(self.connect, left), read=read, write=read, pool=read)
