"""Fault waits that shutdown can cut short.

A `timeout` fault holds its request for `hold_s` (30 s by default) and delays add up to
minutes; a server asked to stop would wait all of that out before it exits. Every fault
wait goes through `FaultHolds.wait`, and `release()` (called when shutdown starts) ends
them at once: each held request then answers what its fault answers anyway (a `504` for
`timeout`), so clients see a prompt, documented answer rather than a reset.
"""

from __future__ import annotations

import asyncio

from billing_toolkit.simulator.faults.clock import FaultClock


class FaultHolds:
    def __init__(self, clock: FaultClock) -> None:
        self._clock = clock
        self._released = asyncio.Event()

    @property
    def released(self) -> bool:
        return self._released.is_set()

    async def wait(self, seconds: float) -> None:
        """Sleep `seconds` on the fault clock, or less if `release()` comes first."""
        if self._released.is_set():
            return
        sleeping = asyncio.ensure_future(self._clock.sleep(seconds))
        releasing = asyncio.ensure_future(self._released.wait())
        try:
            await asyncio.wait((sleeping, releasing), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sleeping, releasing):
                task.cancel()

    def release(self) -> None:
        """End every wait now and any later one at once (the server is stopping)."""
        self._released.set()

    def rearm(self) -> None:
        """Hold again (a server starts serving this app): a fresh event, bound to the loop
        of the server that starts, so an app served again after a stop — the pytest plugin
        shares one between tests — holds its faults instead of answering them at once."""
        self._released = asyncio.Event()
