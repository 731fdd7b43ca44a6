"""In-process handle over the simulator's admin operations.

The admin HTTP routes are thin wrappers over this class, and tests (or a pytest plugin)
use it directly on an app they hold:

    control = control_of(app)
    control.faults.add("http_503", operation="getBalance", times=3)
    control.clock.advance(days=31)

Every method is safe to call from another thread than the server's event loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from starlette.applications import Starlette

from billing_toolkit.simulator.faults.events import FaultEvent
from billing_toolkit.simulator.faults.registry import FaultRegistry
from billing_toolkit.simulator.faults.rules import FaultRule, parse_rule
from billing_toolkit.simulator.faults.scenario import Scenario, load_scenario, parse_scenario_text
from billing_toolkit.simulator.state.engine import DayReport
from billing_toolkit.simulator.state.info import dataset_info
from billing_toolkit.simulator.state.models import BillingState
from billing_toolkit.simulator.state.store import BillingStore


class FaultControl:
    def __init__(self, registry: FaultRegistry, operations: Mapping[str, bool]) -> None:
        self._registry = registry
        self.operations = operations
        """operationId → documents a 404 (what `not_found` needs)."""

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

    def load_scenario(self, scenario: Scenario | Path | str) -> list[FaultRule]:
        """Add every rule of a scenario (parsed, a YAML path, or YAML text)."""
        if isinstance(scenario, Path):
            scenario = load_scenario(scenario, self.operations)
        elif isinstance(scenario, str):
            scenario = parse_scenario_text(scenario, self.operations)
        return [self._registry.add(rule, "scenario") for rule in scenario.rules]

    def remove(self, rule_id: str) -> bool:
        return self._registry.remove(rule_id)

    def clear(self) -> None:
        self._registry.clear()

    def list(self) -> list[dict[str, Any]]:
        return self._registry.rules()

    def events(self) -> list[FaultEvent]:
        return self._registry.events.list()

    def clear_events(self) -> None:
        self._registry.events.clear()


class ClockControl:
    """The business test clock: frozen until moved; crossing days applies the billing rules."""

    def __init__(self, store: BillingStore) -> None:
        self._store = store

    def now(self) -> datetime:
        return self._store.now

    def advance(
        self, *, days: float = 0, hours: float = 0, minutes: float = 0, seconds: float = 0
    ) -> DayReport:
        step = timedelta(days=days, hours=hours, minutes=minutes, seconds=seconds)
        if step < timedelta(0):
            raise ValueError("the clock only moves forward; restore a snapshot or reset to go back")
        return self._store.advance(self._store.now + step)

    def set(self, moment: datetime) -> DayReport:
        if moment.tzinfo is None:
            raise ValueError("the time must carry a UTC offset (for example 2026-12-01T00:00:00Z)")
        return self._store.advance(moment)


class SimulatorControl:
    def __init__(
        self, store: BillingStore, registry: FaultRegistry, operations: Mapping[str, bool]
    ) -> None:
        self.store = store
        self.faults = FaultControl(registry, operations)
        self.clock = ClockControl(store)

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
