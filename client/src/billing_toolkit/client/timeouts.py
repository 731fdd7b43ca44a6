"""Per-call time limits: connect, read, and a total budget that bounds retries too."""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from billing_toolkit.client.config_checks import check_seconds


@dataclass(frozen=True, slots=True)
class Timeouts:
    """`connect` and `read` bound one attempt; `total` bounds the whole call, retries included.

    Each attempt gets `min(limit, what is left of total)`, and a body that trickles in slower
    than the budget is cut off between chunks, so a dead or drip-feeding API costs at most
    `total` (plus at most one chunk wait), never timeout x attempts.
    """

    connect: float = 2.0
    read: float = 5.0
    total: float = 10.0

    def __post_init__(self) -> None:
        for name in ("connect", "read", "total"):
            check_seconds(f"Timeouts.{name}", getattr(self, name))

    def for_attempt(self, remaining: float) -> httpx.Timeout:
        """The httpx timeouts of one attempt that starts with `remaining` seconds of budget."""
        left = max(remaining, 0.001)
        read = min(self.read, left)
        return httpx.Timeout(connect=min(self.connect, left), read=read, write=read, pool=read)
