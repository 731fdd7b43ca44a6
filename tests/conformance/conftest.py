"""The simulator as the kit's target: a fresh, small, seeded instance per test, on loopback.

The kit itself never imports the simulator; only these fixtures do, to start it and to
read its dataset info (tenants, API keys, a sample account) the way the production team
would read their staging data sheet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from simulator.app import create_app
from simulator.config import SimulatorConfig
from simulator.control import SimulatorControl, control_of
from tests.conformance.server import serve

SEED = 7
CUSTOMERS_PER_TENANT = 30


@dataclass(frozen=True)
class Target:
    """A running simulator, what the kit needs to know about it, and its control handle."""

    base_url: str
    api_key: str
    other_tenant_key: str
    account_number: str
    customer_phone: str
    control: SimulatorControl

    def kit_values(self, **overrides: Any) -> dict[str, Any]:
        """Settings values for `build_settings`, as the production team would pass them."""
        return {
            "base_url": self.base_url,
            "api_key": self.api_key,
            "other_tenant_key": self.other_tenant_key,
            "account_number": self.account_number,
            "allow_writes": True,
            "max_examples": 3,
            **overrides,
        }


def _target(base_url: str, control: SimulatorControl) -> Target:
    info = control.info()
    primary, other = info["tenants"][0], info["tenants"][1]
    sample = primary["samples"]["open_invoice"]
    return Target(
        base_url=base_url,
        api_key=primary["api_key"],
        other_tenant_key=other["api_key"],
        account_number=sample["account_number"],
        customer_phone=sample["phone"],
        control=control,
    )


Wrap = Callable[[Any, str], Any]


@contextmanager
def running_simulator(wrap: Wrap | None = None) -> Iterator[Target]:
    """A fresh simulator on a free loopback port, optionally behind a broken wrapper."""
    app = create_app(SimulatorConfig(seed=SEED, customers_per_tenant=CUSTOMERS_PER_TENANT))
    control = control_of(app)
    primary_key = control.info()["tenants"][0]["api_key"]
    served = wrap(app, primary_key) if wrap is not None else app
    with serve(served) as base_url:
        yield _target(base_url, control)


@pytest.fixture
def simulator() -> Iterator[Target]:
    with running_simulator() as target:
        yield target
