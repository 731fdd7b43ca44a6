"""Stateful billing simulator served from `contract/openapi.yaml`, with faults and a test clock.

Public seams (stable; other packages and the pytest plugin build on them):

- `create_app(config) -> Starlette` — the whole simulator (billing API + `/_sim` admin API).
  Test it in-process with `httpx.ASGITransport(app=app)` or on loopback with
  `serve_in_thread(app)` (uvicorn on 127.0.0.1, free port).
- `SimulatorConfig` — seed, customers per tenant, `state_path` (SQLite), `scenario`, `max_body_bytes`,
  `admin_token` (env `BILLING_SIM_ADMIN_TOKEN`, dev default `sim-admin-dev-token`),
  `allow_fault_header`, `validate_responses`, `raise_on_invalid_response`,
  `validation_engine`, `clock` (fault clock: `RealClock` / `ManualClock`), `start_time`.
- `dataset_info(state)` and `generate(seed, customers_per_tenant)` — the dataset and what
  tests need to know about it (tenants, API keys, sample customers, invoice numbers,
  near-duplicate pairs, another tenant's invoice). `billing-sim info --seed N` prints it.
- `SimulatorControl` (`control_of(app)`) — in-process admin: `faults.add/clear/remove/list/
  events(kind)/load_scenario(replace=)/unload_scenario/scenarios/state/set_state`, `clock.now/advance/set`, `reset`, `snapshot`, `restore`, `info`.
- `billing_toolkit.pytest_plugin` — the pytest plugin (`billing_sim` in-process, `billing_sim_server` on
  loopback) and `open_billing_sim` for other runners; see `pytest_plugin/README.md`.
- Socket faults (timeout, connection reset/drop, truncated body) act on the TCP connection
  under uvicorn; in-process they are emulated by raising the httpx transport error a
  client would get (see `billing_toolkit.simulator.faults.socket`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what static tools see; at run time `__getattr__` loads each on first use
    from billing_toolkit.simulator.app import create_app
    from billing_toolkit.simulator.config import (
        ADMIN_PREFIX,
        ADMIN_TOKEN_ENV,
        DEV_ADMIN_TOKEN,
        SimulatorConfig,
    )
    from billing_toolkit.simulator.control import SimulatorControl, control_of
    from billing_toolkit.simulator.faults.clock import ManualClock, RealClock
    from billing_toolkit.simulator.faults.kinds import KINDS
    from billing_toolkit.simulator.server import RunningServer, serve_in_thread
    from billing_toolkit.simulator.state.dataset import generate
    from billing_toolkit.simulator.state.info import dataset_info
    from billing_toolkit.simulator.validation import ContractViolation

_EXPORTS: dict[str, str] = {
    "ADMIN_PREFIX": "billing_toolkit.simulator.config",
    "ADMIN_TOKEN_ENV": "billing_toolkit.simulator.config",
    "DEV_ADMIN_TOKEN": "billing_toolkit.simulator.config",
    "KINDS": "billing_toolkit.simulator.faults.kinds",
    "ContractViolation": "billing_toolkit.simulator.validation",
    "ManualClock": "billing_toolkit.simulator.faults.clock",
    "RealClock": "billing_toolkit.simulator.faults.clock",
    "RunningServer": "billing_toolkit.simulator.server",
    "SimulatorConfig": "billing_toolkit.simulator.config",
    "SimulatorControl": "billing_toolkit.simulator.control",
    "control_of": "billing_toolkit.simulator.control",
    "create_app": "billing_toolkit.simulator.app",
    "dataset_info": "billing_toolkit.simulator.state.info",
    "generate": "billing_toolkit.simulator.state.dataset",
    "serve_in_thread": "billing_toolkit.simulator.server",
}
"""Public name → the module that defines it. Loaded on first use (PEP 562): the pytest
plugin lives in this package and loads in every pytest run, and importing the app
(openapi-core, the contract) costs seconds that a run not using the simulator should not pay."""

__all__ = [
    "ADMIN_PREFIX",
    "ADMIN_TOKEN_ENV",
    "DEV_ADMIN_TOKEN",
    "KINDS",
    "ContractViolation",
    "ManualClock",
    "RealClock",
    "RunningServer",
    "SimulatorConfig",
    "SimulatorControl",
    "control_of",
    "create_app",
    "dataset_info",
    "generate",
    "serve_in_thread",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'simulator' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
