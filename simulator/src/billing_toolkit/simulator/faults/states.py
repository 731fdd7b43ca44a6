"""Scenario states: which rules are in force depends on what happened before (WireMock's
scenarios).

```yaml
name: payment-then-outage
initial: healthy
states:
  healthy:
    on: [{operation: createPayment, status: 201, count: 1, to: degraded}]
  degraded:
    rules: [{operation: getBalance, kind: http_503}]
    on: [{operation: getBalance, count: 3, to: healthy}]
```

An event is a completed request: its operation and final status. A transition fires after
`count` matching events in the current state (the first in file order wins); entering a
state starts its counts and its rules afresh. Pure: the registry feeds events in.
Bias: an unknown state, operation or status is refused, never a transition that cannot fire.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import Field

from billing_toolkit.simulator.faults.bounded_yaml import quoted
from billing_toolkit.simulator.faults.rules import FaultRule, FaultRuleError
from billing_toolkit.simulator.numbers import Settings, SettingsRefused, read

STATE_FIELDS = ("rules", "on")
TRANSITION_FIELDS = ("operation", "status", "count", "to")
MAX_STATES = 50
MAX_TRANSITIONS = 50
MAX_COUNT = 1_000_000
STATE_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")

RuleParser = Callable[[Any, str], FaultRule]
"""Parses one rule (its problems raised as `FaultRuleError` naming `where`)."""


@dataclass(frozen=True, slots=True)
class Transition:
    operation: str
    to: str
    status: int | None = None
    count: int = 1

    def matches(self, operation: str, status: int) -> bool:
        return self.operation == operation and self.status in (None, status)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"operation": self.operation, "count": self.count, "to": self.to}
        return {**data, "status": self.status} if self.status is not None else data


@dataclass(frozen=True, slots=True)
class State:
    rules: tuple[FaultRule, ...] = ()
    on: tuple[Transition, ...] = ()


@dataclass(frozen=True, slots=True)
class StateMachine:
    initial: str
    states: dict[str, State]


@dataclass(slots=True)
class StateCursor:
    """Where a loaded machine stands: its state and the events each transition has seen."""

    machine: StateMachine
    current: str = ""
    seen: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.enter(self.current or self.machine.initial)

    def enter(self, state: str) -> None:
        self.current, self.seen = state, [0] * len(self.machine.states[state].on)

    def observe(self, operation: str, status: int) -> bool:
        """Count one event; True when it moved the machine (to another state or the same)."""
        for index, transition in enumerate(self.machine.states[self.current].on):
            if transition.matches(operation, status):
                self.seen[index] += 1
                if self.seen[index] >= transition.count:
                    self.enter(transition.to)
                    return True
        return False

    def to_dict(self) -> dict[str, Any]:
        on = self.machine.states[self.current].on
        return {
            "state": self.current,
            "states": list(self.machine.states),
            "transitions": [{**t.to_dict(), "seen": n} for t, n in zip(on, self.seen)],
        }


class _Count(Settings):
    count: Annotated[int, Field(ge=1, le=MAX_COUNT)] = 1
    """How many matching answers move the scenario on."""


def _transition(raw: Any, where: str, names: set[str], statuses: Mapping[str, frozenset[int]],
                problems: list[str]) -> Transition | None:  # fmt: skip
    if not isinstance(raw, Mapping):
        problems.append(f"{where}: must be a mapping, got {type(raw).__name__}")
        return None
    found = len(problems)
    problems.extend(f"{where}.{name}: unknown field (expected {', '.join(TRANSITION_FIELDS)})"
                    for name in sorted(set(map(str, raw)) - set(TRANSITION_FIELDS)))  # fmt: skip
    operation, status, count, to = (
        raw.get(name) for name in ("operation", "status", "count", "to")
    )
    if operation is None:
        problems.append(f"{where}.operation: is required")
    elif not isinstance(operation, str) or operation not in statuses:
        problems.append(f"{where}.operation: unknown operationId {quoted(operation)}")
    if status is not None:
        documented = statuses.get(operation, frozenset()) if isinstance(operation, str) else None
        if isinstance(status, bool) or not isinstance(status, int):
            problems.append(f"{where}.status: must be an HTTP status code, got {quoted(status)}")
        elif documented is not None and operation in statuses and status not in documented:
            allowed = ", ".join(map(str, sorted(documented)))
            problems.append(f"{where}.status: {operation} does not document {status} "
                            f"(documented: {allowed}): the transition would never fire")  # fmt: skip
    try:  # left out or null: 1
        counted: _Count | None = read(_Count, {} if count is None else {"count": count})
    except SettingsRefused as refused:
        problems.extend(f"{where}.{name}: {message}" for name, message in refused.problems)
        counted = None
    if to is None:
        problems.append(f"{where}.to: is required")
    elif not isinstance(to, str) or to not in names:
        problems.append(
            f"{where}.to: unknown state {quoted(to)} (states: {', '.join(sorted(names))})"
        )
    if (
        len(problems) > found
        or counted is None
        or not isinstance(operation, str)
        or not isinstance(to, str)
    ):
        return None  # the problems say why
    return Transition(operation, to, status, counted.count)


def _state(raw: Any, where: str, names: set[str], parse: RuleParser,
           statuses: Mapping[str, frozenset[int]], problems: list[str]) -> State:  # fmt: skip
    if raw is None:
        return State()
    if not isinstance(raw, Mapping):
        problems.append(f"{where}: must be a mapping with `rules` and `on`")
        return State()
    problems.extend(f"{where}.{name}: unknown field (expected {', '.join(STATE_FIELDS)})"
                    for name in sorted(set(map(str, raw)) - set(STATE_FIELDS)))  # fmt: skip
    rules: list[FaultRule] = []
    on: list[Transition] = []
    for key, limit in (("rules", None), ("on", MAX_TRANSITIONS)):
        items = [] if raw.get(key) is None else raw[key]
        if not isinstance(items, list) or (limit is not None and len(items) > limit):
            problems.append(
                f"{where}.{key}: must be a list" + (f" of at most {limit}" if limit else "")
            )
            continue
        for index, item in enumerate(items):
            if key == "rules":
                try:
                    rules.append(parse(item, f"{where}.rules[{index}]"))
                except FaultRuleError as error:
                    problems.extend(error.problems)
            elif found := _transition(item, f"{where}.on[{index}]", names, statuses, problems):
                on.append(found)
    return State(tuple(rules), tuple(on))


def parse_states(data: Mapping[str, Any], parse: RuleParser,
                 statuses: Mapping[str, frozenset[int]]) -> tuple[StateMachine | None, list[str]]:  # fmt: skip
    """The machine of a scenario's `states`/`initial` (None without `states`) and every problem."""
    raw, initial = data.get("states"), data.get("initial")
    if raw is None:
        return None, (["initial: given without states"] if initial is not None else [])
    if not isinstance(raw, Mapping) or not 1 <= len(raw) <= MAX_STATES:
        return None, [f"states: must be a mapping of 1 to {MAX_STATES} named states"]
    problems = [f"states.{name}: a state name is 1 to 64 letters, digits, '_' or '-'"
                for name in map(str, raw) if not STATE_NAME.fullmatch(name)]  # fmt: skip
    names = set(map(str, raw))
    if not data.get("name"):
        problems.append("name: is required with states (the state is read and set by name)")
    if initial is None:
        problems.append("initial: is required with states")
    elif not isinstance(initial, str) or initial not in names:
        problems.append(
            f"initial: unknown state {quoted(initial)} (states: {', '.join(sorted(names))})"
        )
    states = {str(name): _state(body, f"states.{name}", names, parse, statuses, problems)
              for name, body in raw.items()}  # fmt: skip
    return (None if problems else StateMachine(str(initial), states)), problems
