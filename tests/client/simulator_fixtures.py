"""The live simulator for the client's integration tests, built once per module.

In-process through `httpx.ASGITransport` (socket faults are emulated by the simulator with
the exception httpx raises for them), or over loopback with uvicorn for the faults that
need a real socket and real time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.applications import Starlette
from starlette.testclient import TestClient

from simulator.app import create_app
from simulator.config import SimulatorConfig
from simulator.control import SimulatorControl, control_of
from simulator.faults.clock import FaultClock

CUSTOMERS_PER_TENANT = 20
"""Small on purpose: building the dataset is the slow part, and 20 covers every sample."""


@dataclass(frozen=True)
class Simulator:
    app: Starlette
    control: SimulatorControl
    tenant: dict[str, Any]
    """fibranet's entry of `control.info()`: API key, samples, identifiers."""
    other_tenant: dict[str, Any]

    @property
    def api_key(self) -> str:
        return str(self.tenant["api_key"])

    def sample(self, name: str) -> dict[str, Any]:
        return dict(self.tenant["samples"][name])

    def fault_events(self, kind: str) -> int:
        return sum(1 for event in self.control.faults.events() if event.kind == kind)

    def raw(self, path: str) -> Any:
        """What the API answers, untouched by the client (to compare evidence with)."""
        with TestClient(self.app, base_url="http://sim") as http:
            response = http.get(path, headers={"Authorization": f"Bearer {self.api_key}"})
        response.raise_for_status()
        return response.json()


def build_simulator(clock: FaultClock | None = None) -> Simulator:
    config = SimulatorConfig(
        customers_per_tenant=CUSTOMERS_PER_TENANT, raise_on_invalid_response=True
    )
    if clock is not None:
        config.clock = clock
    app = create_app(config)
    control = control_of(app)
    tenants = {t["tenant_id"]: t for t in control.info()["tenants"]}
    return Simulator(app, control, tenants["fibranet"], tenants["llanolink"])
