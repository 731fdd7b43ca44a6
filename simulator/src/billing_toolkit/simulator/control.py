"""In-process handle over the simulator's admin operations.

The admin HTTP routes are thin wrappers over this class, and tests (or a pytest plugin)
use it directly on an app they hold:

    control = control_of(app)
    control.faults.add("http_503", operation="getBalance", times=3)
    control.clock.advance(days=31)

Every method is safe to call from another thread than the server's event loop.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field
from starlette.applications import Starlette

from billing_toolkit.simulator.faults.events import FaultEvent
from billing_toolkit.simulator.faults.registry import FaultRegistry
from billing_toolkit.simulator.faults.report_outcomes import MAX_FORCED_OUTCOMES, ForcedOutcome
from billing_toolkit.simulator.faults.rules import FaultRule, parse_rule
from billing_toolkit.simulator.faults.scenario import Scenario, read_scenario
from billing_toolkit.simulator.journal import JournalQuery, RequestJournal
from billing_toolkit.simulator.numbers import Settings, read
from billing_toolkit.simulator.rate_limit import RateLimiter, parse_policy
from billing_toolkit.simulator.state.engine import DayReport
from billing_toolkit.simulator.state.info import dataset_info
from billing_toolkit.simulator.state.models import BillingState
from billing_toolkit.simulator.state.store import BillingStore


class ScenarioConflict(ValueError):
    """A scenario load that would repeat or replace nothing by name."""


class FaultControl:
    def __init__(
        self,
        registry: FaultRegistry,
        operations: Mapping[str, bool],
        statuses: Mapping[str, frozenset[int]] | None = None,
        *,
        store: BillingStore,
    ) -> None:
        self._registry = registry
        self._store = store
        self._lock = threading.RLock()
        self._outcomes: dict[str | None, tuple[ForcedOutcome, ...]] = {}
        """Scenario name (None: scenarios without one) → the report outcomes it forces."""
        self.operations = operations
        """operationId → documents a 404 (what `not_found` needs)."""
        self.statuses = statuses
        """operationId → its documented statuses (what a scenario transition may name)."""

    def add(self, kind: str, operation: str | None = None, **fields: Any) -> FaultRule:
        """Add one rule: `add("http_503", operation="getBalance", times=3, retry_after_s=2)`."""
        raw = {
            "kind": kind,
            **({"operation": operation} if operation is not None else {}),
            **fields,
        }
        return self.add_rule(raw)

    def add_rule(
        self, raw: Mapping[str, Any], source: str = "rule", where: str = "fault"
    ) -> FaultRule:
        """Add a rule given as a mapping (admin JSON, YAML); raises `FaultRuleError`
        whose message starts with `where` and the field (`fault.kind: ...`)."""
        return self._registry.add(parse_rule(raw, where, self.operations), source)

    def load_scenario(
        self, scenario: Scenario | Path | str, replace: bool = False
    ) -> list[FaultRule]:
        """Add every rule of a scenario, or none: parsed, a `Path`, a `str` naming a file
        (one line ending in `.yaml`/`.yml`, or an existing file) or YAML text.

        A scenario with a name is loaded once: loading that name again is refused unless
        `replace` (its old rules are dropped and the new ones added in one step)."""
        parsed = read_scenario(scenario, self.operations, self.statuses)
        name = parsed.name or None
        if replace and name is None:
            raise ScenarioConflict("replace needs a scenario with a `name`")
        with self._lock:
            if name is not None and not replace and self._loaded(name):
                raise ScenarioConflict(
                    f"scenario {name!r} is already loaded; replace it or unload it first"
                )
            outcomes = self._outcomes_after(name, replace, parsed.outcomes)
            added = self._registry.add_all(
                list(parsed.rules), "scenario", name, replace, parsed.machine
            )
            self._publish(outcomes)
            return added

    def _loaded(self, name: str) -> bool:
        return self._registry.scenario_loaded(name) or name in self._outcomes

    def _outcomes_after(
        self, name: str | None, replace: bool, new: tuple[ForcedOutcome, ...]
    ) -> dict[str | None, tuple[ForcedOutcome, ...]]:
        """The forced outcomes once this scenario is loaded; `ValueError` (nothing loaded)
        when another loaded scenario forces one of its references, or there would be too
        many: two verdicts for one reference would make the answer depend on load order."""
        kept = {
            owner: outcomes
            for owner, outcomes in self._outcomes.items()
            if not (replace and owner == name)
        }
        if not new:
            return kept
        forced = {outcome.key: owner for owner, outcomes in kept.items() for outcome in outcomes}
        for outcome in new:
            if outcome.key in forced:
                owner = forced[outcome.key]
                raise ValueError(
                    f"reference {outcome.reference!r} of {outcome.tenant} is already forced by"
                    + (f" scenario {owner!r}" if owner else " a scenario without a name")
                )
        if len(forced) + len(new) > MAX_FORCED_OUTCOMES:
            raise ValueError(
                f"at most {MAX_FORCED_OUTCOMES} report outcomes are forced at once"
                f" ({len(forced)} are; unload a scenario first)"
            )
        return {**kept, name: (*kept.get(name, ()), *new)}

    def _publish(self, outcomes: dict[str | None, tuple[ForcedOutcome, ...]]) -> None:
        """Adopt `outcomes` and hand the store the verdicts it verifies with."""
        self._outcomes = {owner: items for owner, items in outcomes.items() if items}
        self._store.forced_outcomes = {
            outcome.key: outcome.verdict for items in self._outcomes.values() for outcome in items
        }

    def report_outcomes(self) -> list[dict[str, str]]:
        """Every forced report outcome, with the `scenario` that forces it (when named)."""
        with self._lock:
            return [
                {**outcome.to_dict(), **({"scenario": owner} if owner else {})}
                for owner, items in self._outcomes.items()
                for outcome in items
            ]

    def scenarios(self) -> list[dict[str, Any]]:
        """Each loaded scenario with states: its state and what its transitions have seen."""
        return self._registry.machines()

    def state(self, name: str) -> str:
        """The current state of a loaded scenario (`KeyError` when none has this name)."""
        states = {str(m["name"]): str(m["state"]) for m in self.scenarios()}
        if name not in states:
            raise KeyError(f"no loaded scenario with states is named {name!r}")
        return states[name]

    def set_state(self, name: str, state: str) -> dict[str, Any]:
        """Put a scenario in a state, its rules started afresh (`KeyError`: no such
        scenario; `UnknownState`: no such state)."""
        return self._registry.set_state(name, state)

    def unload_scenario(self, name: str) -> int:
        """Remove the rules, states and forced report outcomes of the scenario with this
        name; how many there were."""
        with self._lock:
            dropped = len(self._outcomes.get(name, ()))
            self._publish(
                {owner: items for owner, items in self._outcomes.items() if owner != name}
            )
            return self._registry.unload(name) + dropped

    def remove(self, rule_id: str) -> bool:
        return self._registry.remove(rule_id)

    def clear(self) -> None:
        """Every rule, scenario state and forced report outcome goes."""
        with self._lock:
            self._registry.clear()
            self._publish({})

    def list(self) -> list[dict[str, Any]]:
        return self._registry.rules()

    def events(self, kind: str | None = None) -> list[FaultEvent]:
        return self._registry.events.list(kind)

    def clear_events(self) -> None:
        self._registry.events.clear()


class JournalControl:
    """The request journal, read and filtered: `requests.count(operation="createPayment")`.

    Filters are `JournalQuery`'s fields; `body={"reference": "INV-7"}` matches a field of
    the JSON body as sent. With the journal off (`journal_size=0`) every read is empty."""

    def __init__(self, journal: RequestJournal) -> None:
        self.journal = journal

    @property
    def enabled(self) -> bool:
        return self.journal.enabled

    def list(self, limit: int | None = None, **filters: Any) -> list[dict[str, Any]]:
        """Matching requests, oldest first, masked; with `limit` only the newest `limit`."""
        return self.journal.list(JournalQuery(**filters), limit)

    def count(self, **filters: Any) -> int:
        return self.journal.count(JournalQuery(**filters))

    def clear(self) -> None:
        self.journal.clear()


MAX_CLOCK_STEP = timedelta(days=3660)
"""Ten years per move: each day crossed runs the billing rules, and a step this large is
already minutes of work (the admin contract states the same bound)."""
_BACKWARDS = "the clock only moves forward; restore a snapshot or reset to go back"
_FORWARD = Annotated[float, Field(ge=0.0, description=_BACKWARDS)]


class ClockStep(Settings):
    """How far to move the clock; the parts add up."""

    days: _FORWARD = 0.0
    hours: _FORWARD = 0.0
    minutes: _FORWARD = 0.0
    seconds: _FORWARD = 0.0

    def total_seconds(self) -> float:
        """In float seconds, so `1e300` days is refused as too far, not a `timedelta` overflow."""
        return self.days * 86_400.0 + self.hours * 3_600.0 + self.minutes * 60.0 + self.seconds


class ClockControl:
    """The business test clock: frozen until moved; crossing days applies the billing rules."""

    def __init__(self, store: BillingStore) -> None:
        self._store = store

    def now(self) -> datetime:
        return self._store.now

    def advance(
        self, *, days: float = 0, hours: float = 0, minutes: float = 0, seconds: float = 0
    ) -> DayReport:
        """Forward by the parts, which add up; `ValueError` (nothing moved) when a part is
        not a finite number >= 0 (`SettingsRefused` naming each), or together they pass
        `MAX_CLOCK_STEP`."""
        parts = {"days": days, "hours": hours, "minutes": minutes, "seconds": seconds}
        total = read(ClockStep, parts).total_seconds()
        if total > MAX_CLOCK_STEP.total_seconds():
            raise ValueError(f"the clock moves at most {MAX_CLOCK_STEP.days} days at a time")
        return self._store.advance(self._store.now + timedelta(seconds=total))

    def set(self, moment: datetime) -> DayReport:
        if moment.tzinfo is None:
            raise ValueError("the time must carry a UTC offset (for example 2026-12-01T00:00:00Z)")
        now = self._store.now
        if moment < now:
            raise ValueError(_BACKWARDS)
        if moment - now > MAX_CLOCK_STEP:
            raise ValueError(f"the clock moves at most {MAX_CLOCK_STEP.days} days at a time")
        return self._store.advance(moment)


class RateLimitControl:
    """The rate limiter's policies: `set("20/s", "getBalance=5/min")`, `list()`, `clear()`."""

    def __init__(self, limiter: RateLimiter, operations: Mapping[str, bool]) -> None:
        self._limiter, self._operations = limiter, operations

    def set(self, *limits: str, where: str = "limits") -> list[dict[str, object]]:
        """Replace every policy (all or none; every bucket starts full); `RateLimitError`
        naming the bad one (`limits[1]: ...`)."""
        parsed = [
            parse_policy(text, self._operations, f"{where}[{index}]")
            for index, text in enumerate(limits)
        ]
        self._limiter.replace(parsed, where)
        return self.list()

    def list(self) -> list[dict[str, object]]:
        return [policy.to_dict() for policy in self._limiter.policies]

    def clear(self) -> None:
        self._limiter.replace(())


class SimulatorControl:
    def __init__(
        self,
        store: BillingStore,
        registry: FaultRegistry,
        operations: Mapping[str, bool],
        journal: RequestJournal | None = None,
        *,
        limiter: RateLimiter,
        statuses: Mapping[str, frozenset[int]] | None = None,
    ) -> None:
        self.store = store
        self.faults = FaultControl(registry, operations, statuses, store=store)
        self.clock = ClockControl(store)
        self.rate_limits = RateLimitControl(limiter, operations)
        self.requests = JournalControl(journal or RequestJournal(0))

    def info(self) -> dict[str, Any]:
        """Tenants, API keys, sample customers and identifiers of the live state."""
        return self.store.read(_info)  # type: ignore[return-value]

    def reset(self, seed: int | None = None, customers_per_tenant: int | None = None) -> None:
        self.store.reset(seed, customers_per_tenant)

    def snapshot(self, snapshot_id: str | None = None) -> str:
        return self.store.snapshot(snapshot_id)

    def restore(self, snapshot_id: str) -> None:
        self.store.restore(snapshot_id)

    def snapshots(self) -> list[dict[str, str]]:
        return self.store.snapshots()


def _info(state: BillingState) -> dict[str, Any]:
    return dataset_info(state)


def control_of(app: Starlette) -> SimulatorControl:
    """The control of an app made by `create_app`."""
    control = getattr(app.state, "control", None)
    if not isinstance(control, SimulatorControl):
        raise TypeError("this app was not made by simulator.create_app")
    return control
