"""One virtual clock for the in-process simulator and the clients bound to it.

The simulator's fault delays (latency kinds) and the client's retry back-off and
`Retry-After` waits all move this clock instead of sleeping, so a test that injects three
503s with `Retry-After: 5` runs in milliseconds, and the client's total-time budget still
sees the 10 virtual seconds pass (the same arithmetic as in production, without the wait).
"""

from __future__ import annotations

from billing_toolkit.simulator.faults.clock import ManualClock


class VirtualTime(ManualClock):
    """`ManualClock` (the simulator's fault clock) plus the client's clock and sleeps."""

    def __call__(self) -> float:
        """The client's monotonic clock."""
        return self.monotonic()

    def sleep_sync(self, seconds: float) -> None:
        """The blocking client's sleep: move the clock, never wait."""
        self.slept.append(seconds)
        self.advance(seconds)
