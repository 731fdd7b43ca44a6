"""Circuit breaker: stop calling a dead API, and find out cheaply when it is back.

```
CLOSED ──N consecutive infrastructure failures──► OPEN ──reset_timeout──► HALF_OPEN
   ▲     or a failure rate over a time window       ▲                         │
   └──────────── probe succeeded ───────────────────┼─────────────────────────┤
                                                    └──── probe failed ───────┘
```

The transitions are pure functions of an immutable `BreakerSnapshot` (tested without a
clock, a thread or a sleep). `CircuitBreaker` wraps them for concurrent use: it locks only
the transition, never the call (a breaker that holds its lock across the request, as
pybreaker does, serialises every call through it), and the lock is never held across an
`await`, so one breaker serves threads and asyncio tasks alike.

Decisions, and their bias:
- Only infrastructure failures count. A business "no" proves the API works, so it counts
  as a success (resets the failure streak, lowers the failure rate, closes a probe).
- Two trips, either or both (it opens on whichever fires first): a streak of consecutive
  failures catches a hard outage in a few calls; a failure rate over a sliding time window
  (`billing_toolkit.client.breaker_window`) catches a flaky API whose failures come between successes, so
  never make a streak. The default is the streak alone. The rate is judged when a failure
  is recorded: a success never opens the circuit.
- Opening forgets the streak and the window, so a circuit that closes again starts from a
  clean slate: a recovered API is not sent back to OPEN by failures from before the outage.
- One probe at a time in HALF_OPEN: every other caller fails fast until it reports.
- A failed probe reopens at once: if the probe fails the API is still bad, and spending
  the rest of the threshold to confirm it only costs more subscribers a timeout.
- Every admission is a ticket stamped with the breaker's generation; an outcome reported
  on a ticket from an earlier generation (a slow call admitted before the circuit opened)
  is ignored, so it can neither close a circuit nor reopen one.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum, StrEnum

from billing_toolkit.client.breaker_window import (
    EMPTY_WINDOW,
    FailureRateTrip,
    OutcomeWindow,
    recorded,
    tripped,
)
from billing_toolkit.client.errors import CircuitOpenError
from billing_toolkit.client.options import Count, Seconds, options

logger = logging.getLogger("billing_toolkit.client.breaker")


class CircuitState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


class Admission(Enum):
    CALL = "call"
    PROBE = "probe"
    REJECT = "reject"


@options
class BreakerConfig:
    """When to open, and how long to stay open before a probe.

    `failure_threshold` consecutive infrastructure failures open the circuit (None turns
    that trip off); `failure_rate` opens it on a share of failures over a time window (off
    unless given). At least one trip must be on.
    """

    failure_threshold: Count | None = 5
    reset_timeout: Seconds = 30.0
    failure_rate: FailureRateTrip | None = None

    def __post_init__(self) -> None:
        if self.failure_threshold is None and self.failure_rate is None:
            raise ValueError(
                "BreakerConfig needs a trip: set failure_threshold or failure_rate (or both)"
            )


@dataclass(frozen=True, slots=True)
class BreakerSnapshot:
    state: CircuitState = CircuitState.CLOSED
    consecutive_failures: int = 0
    opened_at: float = 0.0
    probe_in_flight: bool = False
    generation: int = 0
    window: OutcomeWindow = EMPTY_WINDOW


def _open(snapshot: BreakerSnapshot, now: float) -> BreakerSnapshot:
    return BreakerSnapshot(CircuitState.OPEN, 0, now, False, snapshot.generation + 1)


def admit(
    snapshot: BreakerSnapshot, now: float, config: BreakerConfig
) -> tuple[BreakerSnapshot, Admission]:
    """May a call go through now? OPEN turns HALF_OPEN (and admits one probe) once the reset
    timeout has passed since it opened."""
    if snapshot.state is CircuitState.CLOSED:
        return snapshot, Admission.CALL
    if snapshot.state is CircuitState.OPEN:
        if now - snapshot.opened_at < config.reset_timeout:
            return snapshot, Admission.REJECT
        half_open = BreakerSnapshot(
            CircuitState.HALF_OPEN, 0, snapshot.opened_at, True, snapshot.generation + 1
        )
        return half_open, Admission.PROBE
    if snapshot.probe_in_flight:
        return snapshot, Admission.REJECT
    return replace(snapshot, probe_in_flight=True), Admission.PROBE


def _counted(
    window: OutcomeWindow, now: float | None, failed: bool, config: BreakerConfig | None
) -> OutcomeWindow:
    """`window` with this outcome in it, when the config has a rate trip to feed."""
    trip = config.failure_rate if config is not None else None
    if trip is None:
        return window
    if now is None:
        raise TypeError("a breaker with a failure_rate needs the time of every outcome")
    return recorded(window, now, failed, trip)


def _trips(consecutive_failures: int, window: OutcomeWindow, config: BreakerConfig) -> bool:
    threshold, trip = config.failure_threshold, config.failure_rate
    return (threshold is not None and consecutive_failures >= threshold) or (
        trip is not None and tripped(window, trip)
    )


def succeeded(
    snapshot: BreakerSnapshot,
    generation: int,
    now: float | None = None,
    config: BreakerConfig | None = None,
) -> BreakerSnapshot:
    """A call of `generation` got an answer from the API (data or a business "no").

    `now` and `config` matter only to a failure-rate window, which counts the success; a
    breaker with only the consecutive trip needs neither.
    """
    if generation != snapshot.generation:
        return snapshot
    if snapshot.state is CircuitState.HALF_OPEN:
        return BreakerSnapshot(generation=snapshot.generation + 1)
    if snapshot.state is CircuitState.CLOSED:
        window = _counted(snapshot.window, now, False, config)
        if snapshot.consecutive_failures or window is not snapshot.window:
            return replace(snapshot, consecutive_failures=0, window=window)
    return snapshot


def failed(
    snapshot: BreakerSnapshot, generation: int, now: float, config: BreakerConfig
) -> BreakerSnapshot:
    """A call of `generation` hit an infrastructure failure."""
    if generation != snapshot.generation:
        return snapshot
    if snapshot.state is CircuitState.HALF_OPEN:
        return _open(snapshot, now)
    if snapshot.state is CircuitState.CLOSED:
        failures = snapshot.consecutive_failures + 1
        window = _counted(snapshot.window, now, True, config)
        if _trips(failures, window, config):
            return _open(snapshot, now)
        return replace(snapshot, consecutive_failures=failures, window=window)
    return snapshot


def abandoned(snapshot: BreakerSnapshot, generation: int) -> BreakerSnapshot:
    """A call of `generation` ended without an outcome (cancelled): free the probe slot."""
    if generation == snapshot.generation and snapshot.state is CircuitState.HALF_OPEN:
        return replace(snapshot, probe_in_flight=False)
    return snapshot


StateListener = Callable[[CircuitState, CircuitState], None]


@dataclass(frozen=True, slots=True)
class Ticket:
    """Permission for one attempt; report its outcome exactly once."""

    generation: int
    probe: bool


class CircuitBreaker:
    """Thread- and asyncio-safe breaker around the pure transitions above.

    `clock` is injected (monotonic seconds) so tests move time instead of sleeping.
    `on_state_change(old, new)` is called after every transition, outside the lock, and a
    log line is written at WARNING when the circuit opens and INFO otherwise.
    """

    def __init__(
        self,
        config: BreakerConfig | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        on_state_change: StateListener | None = None,
        name: str = "billing",
    ) -> None:
        self.config = config or BreakerConfig()
        self.name = name
        self._clock = clock
        self._listener = on_state_change
        self._lock = threading.Lock()
        self._snapshot = BreakerSnapshot()

    @property
    def state(self) -> CircuitState:
        return self._snapshot.state

    @property
    def snapshot(self) -> BreakerSnapshot:
        return self._snapshot

    def acquire(self) -> Ticket:
        """A ticket for one attempt, or `CircuitOpenError` without touching the network."""
        now = self._clock()
        with self._lock:
            before = self._snapshot
            self._snapshot, admission = admit(before, now, self.config)
            after = self._snapshot
        self._announce(before.state, after.state)
        if admission is Admission.REJECT:
            wait = max(0.0, after.opened_at + self.config.reset_timeout - now)
            raise CircuitOpenError(
                f"circuit {self.name} is {after.state.value}; failing fast", retry_after=wait
            )
        return Ticket(after.generation, admission is Admission.PROBE)

    def record_success(self, ticket: Ticket) -> None:
        now = self._clock()
        self._transition(lambda s: succeeded(s, ticket.generation, now, self.config))

    def record_failure(self, ticket: Ticket) -> None:
        now = self._clock()
        self._transition(lambda s: failed(s, ticket.generation, now, self.config))

    def release(self, ticket: Ticket) -> None:
        """The attempt ended with no verdict (cancelled, or a bug of ours): free a probe."""
        self._transition(lambda s: abandoned(s, ticket.generation))

    def _transition(self, change: Callable[[BreakerSnapshot], BreakerSnapshot]) -> None:
        with self._lock:
            before = self._snapshot.state
            self._snapshot = change(self._snapshot)
            after = self._snapshot.state
        self._announce(before, after)

    def _announce(self, before: CircuitState, after: CircuitState) -> None:
        if before is after:
            return
        level = logging.WARNING if after is CircuitState.OPEN else logging.INFO
        logger.log(level, "circuit breaker %s: %s -> %s", self.name, before.value, after.value)
        if self._listener is not None:
            self._listener(before, after)
