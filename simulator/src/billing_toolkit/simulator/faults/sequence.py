"""Sequences: one rule whose fault changes step by step — "fail twice, then succeed".

```yaml
- operation: getBalance
  steps:
    - {kind: http_503, times: 2}      # the next 2 matching requests
    - {kind: pass, times: 5}          # 5 served normally
    - {kind: http_503, duration_s: 30}  # then 30 s on the fault clock
  # after the last step the rule is spent: the operation recovers (`repeat: true` loops)
```

A step lasts `times` matching requests or `duration_s` seconds on the fault clock from
when it began; only the last may have neither (it stays). `pass` injects nothing but
counts. The cursor is pure: time is passed in, so `ManualClock` moves it in tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PASS = "pass"


@dataclass(frozen=True, slots=True)
class Step:
    kind: str
    """A fault kind, or `pass` (served normally)."""
    params: dict[str, float] = field(default_factory=dict)
    times: int | None = None
    duration_s: float | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, **self.params}
        if self.times is not None:
            data["times"] = self.times
        if self.duration_s is not None:
            data["duration_s"] = self.duration_s
        return data


@dataclass(slots=True)
class SequenceCursor:
    steps: tuple[Step, ...]
    repeat: bool
    started_at: float
    """When the current step began, on the fault clock."""
    index: int = 0
    count: int = 0
    """Matching requests seen by the current step."""

    def current(self, now: float) -> Step | None:
        """The step in force at `now` (duration steps that ran out are left behind);
        None once the last step is over."""
        if self.repeat and all(step.duration_s is not None for step in self.steps):
            return self._in_cycle(now)
        while self.index < len(self.steps):  # stops at a `times` step: a few turns at most
            step = self.steps[self.index]
            if step.duration_s is None or now < self.started_at + step.duration_s:
                return step
            self._next(self.started_at + step.duration_s)
        return None

    def _in_cycle(self, now: float) -> Step:
        """A repeating sequence of durations: where `now` falls, by arithmetic (a clock
        moved by a year must not walk through every cycle)."""
        durations = [step.duration_s or 0.0 for step in self.steps]
        begun = self.started_at - sum(durations[: self.index])
        offset = (now - begun) % sum(durations) if now > begun else 0.0
        self.index = 0
        while self.index < len(durations) - 1 and offset >= durations[self.index]:
            offset -= durations[self.index]
            self.index += 1
        self.started_at, self.count = now - offset, 0
        return self.steps[self.index]

    def consumed(self, now: float) -> None:
        """One matching request was answered by the current step."""
        step = self.steps[self.index]
        self.count += 1
        if step.times is not None and self.count >= step.times:
            self._next(now)

    def _next(self, at: float) -> None:
        self.index, self.count, self.started_at = self.index + 1, 0, at
        if self.repeat and self.index == len(self.steps):
            self.index = 0

    def position(self) -> dict[str, int]:
        return {"step": self.index, "count": self.count}
