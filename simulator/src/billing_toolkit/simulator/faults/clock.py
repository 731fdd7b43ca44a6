"""Time for faults: a monotonic clock and a sleep, injectable so tests never really wait.

Business time (billing days) is the store's test clock; this one only measures fault time
windows and performs delays.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class FaultClock(Protocol):
    def monotonic(self) -> float: ...
    async def sleep(self, seconds: float) -> None: ...


class RealClock:
    """`time.monotonic` and `asyncio.sleep` on the server's event loop (never blocks others)."""

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class ManualClock:
    """A clock that moves only when told to; `sleep` records the delay and moves the clock."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.slept: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)
