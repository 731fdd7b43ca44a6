"""Sign-in throttling: failed secrets slow their sender down, exponentially, per address and
per account, on every surface that takes a token (both consoles' sign-in, the handoff and
admin bearers).

    throttle = SignInThrottle(MemoryFailureCounts())          # or the assistant's SQL store
    wait = throttle.wait_s(address, account)                  # > 0: answer 429, Retry-After
    ... check the token ...
    throttle.failed(address, account) or throttle.succeeded(address)

After `FREE_FAILURES` failures an address must wait `FIRST_DELAY_S`, then twice as long
after each further failure, up to `MAX_DELAY_S`; an attempt made while it must wait is
refused unchecked (and not counted), so 200 guesses take hours, not a second. An account
(the agent named on the form, the admin token's one account) has a counter of its own with
a larger allowance, against guesses spread over many addresses; it holds back only
addresses that have failed already, so the right token from a clean address works at once.
A success forgets its own address's failures, never another's, and never the account's (an
attacker must not be cleared by a colleague signing in). Counters fall back to zero
`FORGET_AFTER_S` after their last failure.

The counters live behind `FailureCounts`: in memory for the simulator (one process), in
the assistant's store for its replicas, which must share them. The clock is injected (Unix
seconds), so tests move it instead of sleeping. Bias: refuse — a locked-out colleague waits
a minute, a guessed token is an incident.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

FREE_FAILURES = 5
"""Failures from one address before it has to wait (typos happen)."""
ACCOUNT_FREE_FAILURES = 20
"""Failures against one account, from every address, before failing addresses wait."""
FIRST_DELAY_S = 1.0
MAX_DELAY_S = 15 * 60.0
FORGET_AFTER_S = 24 * 3600.0
"""Failures older than this are forgotten (a counter is not a lifetime ban)."""


class FailureCounts(Protocol):
    """Where failures are counted: shared by every process that checks the same tokens."""

    def failures(self, key: str) -> tuple[int, float]:
        """The failures counted for `key` and the time of the last one ((0, 0.0): none)."""
        ...

    def add_failure(self, key: str, now: float, forget_before: float) -> None:
        """One more failure at `now`; a count whose last failure is before `forget_before`
        starts over at one."""
        ...

    def forget(self, key: str) -> None: ...


class MemoryFailureCounts:
    """`FailureCounts` of one process (the simulator: there is only one)."""

    def __init__(self) -> None:
        self._counts: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def failures(self, key: str) -> tuple[int, float]:
        return self._counts.get(key, (0, 0.0))

    def add_failure(self, key: str, now: float, forget_before: float) -> None:
        with self._lock:
            count, last = self._counts.get(key, (0, 0.0))
            self._counts[key] = (1 if last < forget_before else count + 1, now)

    def forget(self, key: str) -> None:
        self._counts.pop(key, None)


def lockout_s(failures: int, free: int) -> float:
    """How long after its last failure a sender of `failures` failures must wait."""
    if failures < free:
        return 0.0
    return min(FIRST_DELAY_S * 2.0 ** min(failures - free, 64), MAX_DELAY_S)


class SignInThrottle:
    def __init__(self, counts: FailureCounts, clock: Callable[[], float] = time.time) -> None:
        self.counts, self._clock = counts, clock

    def _remaining(self, key: str, free: int, now: float) -> float:
        count, last = self.counts.failures(key)
        if not count or last < now - FORGET_AFTER_S:
            return 0.0
        return max(0.0, last + lockout_s(count, free) - now)

    def wait_s(self, address: str, account: str | None = None) -> int:
        """Whole seconds `address` must wait before its next try at `account` (0: now)."""
        now = self._clock()
        wait = self._remaining(f"address:{address}", FREE_FAILURES, now)
        if account is not None and self.counts.failures(f"address:{address}")[0]:
            wait = max(wait, self._remaining(f"account:{account}", ACCOUNT_FREE_FAILURES, now))
        return math.ceil(wait)

    def failed(self, address: str, account: str | None = None) -> None:
        now = self._clock()
        for key in (f"address:{address}", *([f"account:{account}"] if account else [])):
            self.counts.add_failure(key, now, now - FORGET_AFTER_S)

    def succeeded(self, address: str) -> None:
        if self.counts.failures(f"address:{address}")[0]:
            self.counts.forget(f"address:{address}")


def client_address(scope: Mapping[str, Any]) -> str:
    """The peer address of an ASGI scope ("unknown" when the server gives none)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"
