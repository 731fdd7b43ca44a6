"""`sim.faults`: the admin API's fault calls, and which kinds need a real socket.

In-process (`billing_sim`) the app runs behind an httpx transport, with no socket and no
real time. These kinds only mean what they say on a socket, so there they are refused
with an error naming `billing_sim_server` (when in doubt reject: a test that believes it
exercised a client timeout, but did not, is worse than a test that does not run):

- `timeout` — in-process the request cannot be *held*: the client's own read timeout is
  never reached; the simulator can only raise `httpx.ReadTimeout` at once.
- `slow_drip` — the in-process transport hands over the whole body at once: a client's
  read timeout on a trickling body is never exercised.
- `connection_reset`, `connection_drop`, `truncated_body` — no TCP connection to reset,
  close or cut; the simulator can only raise `httpx.ReadError` / `RemoteProtocolError`.

`@pytest.mark.billing_sim(emulate_socket_faults=True)` accepts them in-process when the
test only needs the exception a client would see (what the simulator's emulation gives:
the three connection kinds and `timeout` raise at once; `slow_drip` answers normally).
Every other kind behaves in-process as on a socket; latency kinds move the test's virtual
clock instead of waiting (`sim.fault_clock`), which the bound clients share.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from billing_toolkit.simulator.control import FaultControl
    from billing_toolkit.simulator.faults.events import FaultEvent
    from billing_toolkit.simulator.faults.rules import FaultRule
    from billing_toolkit.simulator.faults.scenario import Scenario

SOCKET_KINDS = frozenset(
    {"timeout", "slow_drip", "connection_reset", "connection_drop", "truncated_body"}
)


class LoopbackRequired(RuntimeError):
    """A fault kind that only works on a real socket was asked of the in-process simulator."""

    def __init__(self, kind: str) -> None:
        super().__init__(
            f"fault kind {kind!r} needs a real socket: use the billing_sim_server fixture "
            "(or, to get only the httpx error a client would see, in-process, mark the test "
            "@pytest.mark.billing_sim(emulate_socket_faults=True))"
        )
        self.kind = kind


class Faults:
    """Add, list and clear fault rules; read the fault event log."""

    def __init__(self, control: FaultControl, *, socket: bool, emulate: bool) -> None:
        self._control = control
        self._refused = frozenset() if socket or emulate else SOCKET_KINDS

    def add(self, kind: str, operation: str | None = None, **fields: Any) -> FaultRule:
        """One rule, fields as in the admin API:
        `add(operation="getBalance", kind="http_503", times=3, retry_after_s=2)`.
        A bad field raises `FaultRuleError` naming it."""
        self._allow([kind])
        return self._control.add(kind, operation, **fields)

    def sequence(
        self, steps: list[dict[str, Any]], operation: str | None = None, **fields: Any
    ) -> FaultRule:
        """One rule that changes step by step, fields as in the admin API:
        `sequence([{"kind": "http_503", "times": 2}, {"kind": "pass"}], operation="getBalance")`.
        A bad step raises `FaultRuleError` naming it (`fault.steps[1].kind: ...`)."""
        self._allow(step.get("kind", "") for step in steps if isinstance(step, dict))
        target = {"operation": operation} if operation is not None else {}
        return self._control.add_rule({"steps": steps, **target, **fields})

    def load_scenario(
        self, scenario: Scenario | Path | str, replace: bool = False
    ) -> list[FaultRule]:
        """Every rule of a scenario, all or none: parsed, a `Path`, a `str` naming a file
        (one line ending in `.yaml`/`.yml`, or an existing file) or YAML text."""
        from billing_toolkit.simulator.faults.scenario import read_scenario

        parsed = read_scenario(scenario, self._control.operations, self._control.statuses)
        rules = parsed.every_rule()
        self._allow(rule.kind for rule in rules)
        self._allow(step.kind for rule in rules for step in rule.steps)
        return self._control.load_scenario(parsed, replace)

    def state(self, scenario: str) -> str:
        """The current state of a loaded scenario with `states` (`KeyError`: none by this name)."""
        return self._control.state(scenario)

    def set_state(self, scenario: str, state: str) -> dict[str, Any]:
        """Put a scenario in a state, its rules and counts started afresh; raises
        `UnknownState` naming the states it has."""
        return self._control.set_state(scenario, state)

    def scenarios(self) -> list[dict[str, Any]]:
        """Each loaded scenario with states: its state and what its transitions have seen."""
        return self._control.scenarios()

    def rules(self) -> list[dict[str, Any]]:
        """The active rules with how often each has fired."""
        return self._control.list()

    def remove(self, rule_id: str) -> bool:
        return self._control.remove(rule_id)

    def clear(self) -> None:
        """Remove every rule (the event log is kept: see `clear_events`)."""
        self._control.clear()

    def events(self, kind: str | None = None) -> list[FaultEvent]:
        """Injected faults, oldest first; only those of `kind` when given."""
        return [event for event in self._control.events() if kind in (None, event.kind)]

    def clear_events(self) -> None:
        self._control.clear_events()

    def _allow(self, kinds: Iterable[str]) -> None:
        for kind in kinds:
            if kind in self._refused:
                raise LoopbackRequired(kind)
