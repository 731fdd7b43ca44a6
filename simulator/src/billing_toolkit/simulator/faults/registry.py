"""The active fault rules and the decision, per request, of which of them fire.

Rules are evaluated in the order they were added. Delay kinds that fire add up and the
evaluation goes on; the first terminal kind that fires decides the response. Each rule
has its own RNG seeded from the fault seed and its id, so the same sequence of requests
gives the same faults (reproducible flakiness), and rules do not disturb each other's
draws. Time windows are measured on the injectable fault clock from when the rule was
added.

A scenario with named states adds the rules of every state at load, each in force only
while its scenario is in that state; `observe` feeds completed requests to the state
machines, and entering a state starts its rules afresh (counts, sequences, draws).
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from billing_toolkit.contract.operations import Operation
from billing_toolkit.simulator.faults.bounded_yaml import quoted
from billing_toolkit.simulator.faults.clock import FaultClock
from billing_toolkit.simulator.faults.events import EventLog
from billing_toolkit.simulator.faults.kinds import KINDS
from billing_toolkit.simulator.faults.rules import FaultRule, RequestFacts
from billing_toolkit.simulator.faults.sequence import PASS, SequenceCursor
from billing_toolkit.simulator.faults.states import StateCursor, StateMachine

MAX_ACTIVE_RULES = 500
"""Rules in force at once, from every source: each is looked at on every request, so
thousands of them would slow the very operation a test measures."""
MAX_SCENARIOS = 32
"""Scenarios loaded at once (by name; rules added one by one count only as rules)."""


class UnknownState(ValueError):
    """A state asked for that the scenario does not define."""


@dataclass(slots=True)
class _Active:
    rule: FaultRule
    source: str
    added_at: float
    rng: random.Random
    fired: int = 0
    scenario: str | None = None
    """The name of the scenario the rule came from (what `unload` and `replace` act on)."""
    sequence: SequenceCursor | None = None
    """Where a sequence rule stands (None: not a sequence)."""
    state: str | None = None
    """The scenario state the rule is in force in (None: always)."""


@dataclass(slots=True)
class Decision:
    delay_s: float = 0.0
    terminal: FaultRule | None = None
    fired: list[str] = field(default_factory=list)
    """Kinds that fired, in order (for the request log line)."""


def sample_delay(rule: FaultRule, rng: random.Random) -> float:
    """Seconds of delay for a latency rule (lognormal: median·e^(σ·N(0,1)))."""
    params = rule.params
    if rule.kind == "latency_fixed":
        return params["ms"] / 1000
    if rule.kind == "latency_uniform":
        return rng.uniform(params["min_ms"], params["max_ms"]) / 1000
    return rng.lognormvariate(math.log(params["median_ms"]), params["sigma"]) / 1000


class FaultRegistry:
    def __init__(self, clock: FaultClock, events: EventLog, seed: int) -> None:
        self._clock, self.events, self._seed = clock, events, seed
        self._rules: list[_Active] = []
        self._lock = threading.Lock()
        self._next_id = 0
        self._machines: dict[str, StateCursor] = {}
        self.started_at = clock.monotonic()

    @property
    def active(self) -> bool:
        """Any rule or state machine at all (the hot path skips fault matching when none)."""
        return bool(self._rules or self._machines)

    @property
    def watching(self) -> bool:
        """Whether a state machine wants completed requests fed to `observe`."""
        return bool(self._machines)

    def _arm(self, active: _Active, now: float) -> None:
        """Start a rule afresh: its window, count, sequence and draws."""
        rule = active.rule
        active.added_at, active.fired = now, 0
        active.rng = random.Random(f"{self._seed}:{rule.id}")
        active.sequence = (
            SequenceCursor(rule.steps, rule.repeat, now + rule.after_s) if rule.steps else None
        )

    def add(self, rule: FaultRule, source: str = "rule") -> FaultRule:
        return self.add_all([rule], source)[0]

    def add_all(
        self,
        rules: list[FaultRule],
        source: str = "rule",
        scenario: str | None = None,
        replace: bool = False,
        machine: StateMachine | None = None,
    ) -> list[FaultRule]:
        """Add every rule or none (an id already taken refuses them all), and the rules of
        every state of `machine` (the scenario named `scenario`). `replace` first drops the
        rules and machine of the scenario with this name, in the same step."""
        staged = [(rule, None) for rule in rules]
        if machine is not None:
            staged += [(r, name) for name, state in machine.states.items() for r in state.rules]
        with self._lock:
            kept = [a for a in self._rules if not (replace and a.scenario == scenario)]
            if len(kept) + len(staged) > MAX_ACTIVE_RULES:
                raise ValueError(
                    f"at most {MAX_ACTIVE_RULES} fault rules are in force at once"
                    f" ({len(kept)} are; remove some first)"
                )
            loaded = {a.scenario for a in kept if a.scenario}
            if scenario is not None and len(loaded | {scenario}) > MAX_SCENARIOS:
                raise ValueError(f"at most {MAX_SCENARIOS} scenarios are loaded at once")
            taken = {active.rule.id for active in kept}
            wanted = [rule.id for rule, _ in staged if rule.id]
            clash = next((i for i in wanted if i in taken or wanted.count(i) > 1), None)
            if clash is not None:
                raise ValueError(f"a fault with id {quoted(clash)} already exists")
            now = self._clock.monotonic()
            for rule, state in staged:
                self._next_id += 1
                rule.id = rule.id or f"fault-{self._next_id}"
                active = _Active(rule, source, now, random.Random(), scenario=scenario, state=state)
                self._arm(active, now)
                kept.append(active)
            self._rules = kept
            if replace and scenario is not None:
                self._machines.pop(scenario, None)
            if machine is not None and scenario is not None:
                self._machines[scenario] = StateCursor(machine)
            return [rule for rule, _ in staged]

    def scenario_loaded(self, name: str) -> bool:
        with self._lock:
            return name in self._machines or any(a.scenario == name for a in self._rules)

    def unload(self, name: str) -> int:
        """Remove the rules and states of the scenario with this name; how many rules and
        state machines were removed."""
        with self._lock:
            kept = [active for active in self._rules if active.scenario != name]
            removed = len(self._rules) - len(kept)
            self._rules = kept
            return removed + (self._machines.pop(name, None) is not None)

    def remove(self, rule_id: str) -> bool:
        with self._lock:
            kept = [active for active in self._rules if active.rule.id != rule_id]
            removed = len(kept) != len(self._rules)
            self._rules = kept
            return removed

    def clear(self) -> None:
        with self._lock:
            self._rules = []
            self._machines = {}

    def observe(self, operation_id: str, status: int) -> None:
        """A request completed: move every state machine it is an event for."""
        with self._lock:
            for name, cursor in self._machines.items():
                if cursor.observe(operation_id, status):
                    self._entered(name, cursor.current)

    def set_state(self, name: str, state: str) -> dict[str, object]:
        """Put a scenario in a state (for tests); `KeyError` when no such scenario is loaded,
        `UnknownState` when it has no such state."""
        with self._lock:
            cursor = self._machines[name]
            if state not in cursor.machine.states:
                known = ", ".join(sorted(cursor.machine.states))
                raise UnknownState(f"scenario {name!r} has no state {state!r} (states: {known})")
            cursor.enter(state)
            self._entered(name, state)
            return {"name": name, **cursor.to_dict()}

    def _entered(self, name: str, state: str) -> None:
        now = self._clock.monotonic()
        for active in self._rules:
            if active.scenario == name and active.state == state:
                self._arm(active, now)

    def machines(self) -> list[dict[str, object]]:
        """Each loaded scenario with states: its current state and what its transitions saw."""
        with self._lock:
            return [{"name": name, **cursor.to_dict()} for name, cursor in self._machines.items()]

    def _in_force(self, active: _Active) -> bool:
        return active.state is None or self._machines[active.scenario or ""].current == active.state

    def rules(self) -> list[dict[str, object]]:
        with self._lock:
            return [
                {
                    **a.rule.to_dict(),
                    "source": a.source,
                    "fired": a.fired,
                    **({"scenario": a.scenario} if a.scenario else {}),
                    **({"position": a.sequence.position()} if a.sequence else {}),
                    **({"state": a.state, "in_force": self._in_force(a)} if a.state else {}),
                }
                for a in self._rules
            ]

    def decide(
        self, facts: RequestFacts, request_id: str, extra: FaultRule | None = None
    ) -> Decision:
        """Which rules fire for this request; each firing is recorded in the event log."""
        decision = Decision()
        now = self._clock.monotonic()
        with self._lock:
            candidates = list(self._rules)
            if extra is not None:
                candidates.insert(
                    0, _Active(extra, "header", now, random.Random(f"{self._seed}:header"))
                )
            for active in candidates:
                rule = active.rule
                if (
                    not self._in_force(active)
                    or not rule.matches(facts)
                    or not rule.in_window(now - active.added_at)
                ):
                    continue
                if rule.times is not None and active.fired >= rule.times:
                    continue
                if rule.probability < 1.0 and active.rng.random() >= rule.probability:
                    continue
                if active.sequence is not None:
                    step = active.sequence.current(now)
                    if step is None:
                        continue
                    active.sequence.consumed(now)
                    if step.kind == PASS:
                        continue
                    rule = replace(rule, kind=step.kind, params=step.params, steps=())
                active.fired += 1
                self.events.record(
                    elapsed_s=now - self.started_at,
                    request_id=request_id,
                    rule_id=rule.id or "header",
                    source=active.source,
                    kind=rule.kind,
                    operation_id=facts.operation_id,
                    method=facts.method,
                    path=facts.path,
                    tenant=facts.tenant,
                )
                decision.fired.append(rule.kind)
                if KINDS[rule.kind].delay:
                    decision.delay_s += sample_delay(rule, active.rng)
                    continue
                decision.terminal = rule
                break
        return decision


def operations_with_404(operations: Mapping[str, Operation]) -> dict[str, bool]:
    """operationId → documents a 404, from the contract's operations."""
    return {key: 404 in op.responses for key, op in operations.items()}


def operation_statuses(operations: Mapping[str, Operation]) -> dict[str, frozenset[int]]:
    """operationId → the statuses it documents (what a scenario transition may name)."""
    return {key: frozenset(op.responses) for key, op in operations.items()}
