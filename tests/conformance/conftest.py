"""The simulator as the kit's target: a fresh, small, seeded instance per test, on loopback.

The kit itself never imports the simulator; only these fixtures do, to start it and to
read its dataset info (tenants, API keys, a sample account) the way the production team
would read their staging data sheet. The plain simulator is the project's pytest plugin
(`billing_sim_server`; modules set `OPTIONS` with the `billing_sim` marker); a broken one
is the plugin's simulator behind a wrapper, served on its own loopback port, or handed the
kit's requests in-process (`in_process`), which the mutant table uses to stay cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from billing_toolkit.pytest_plugin import BillingSim, SimOptions, open_billing_sim
from billing_toolkit.simulator.control import SimulatorControl
from billing_toolkit.simulator.server import serve_in_thread
from tests.conformance.in_process import InProcessTransport

SEED = 7
CUSTOMERS_PER_TENANT = 30
OPTIONS = pytest.mark.billing_sim(seed=SEED, customers=CUSTOMERS_PER_TENANT)


@dataclass(frozen=True)
class Target:
    """A running simulator, what the kit needs to know about it, and its control handle."""

    base_url: str
    api_key: str
    other_tenant_key: str
    account_number: str
    customer_phone: str
    control: SimulatorControl
    transport: httpx.BaseTransport | None = None
    """How the kit reaches it when it is not on loopback (`run_kit(transport=...)`)."""

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


def _target(
    base_url: str, control: SimulatorControl, transport: httpx.BaseTransport | None = None
) -> Target:
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
        transport=transport,
    )


Wrap = Callable[[Any, str], Any]


@contextmanager
def running_simulator(wrap: Wrap) -> Iterator[Target]:
    """A fresh simulator behind a broken wrapper, on a free loopback port."""
    with open_billing_sim(SimOptions(**OPTIONS.kwargs)) as sim:
        server = serve_in_thread(wrap(sim.app, sim.api_key))
        try:
            yield _target(server.url, sim.control)
        finally:
            server.stop()


@contextmanager
def in_process_simulator(wrap: Wrap) -> Iterator[Target]:
    """A fresh simulator behind a broken wrapper, reached in-process (`InProcessTransport`);
    the transport serves one kit run."""
    with open_billing_sim(SimOptions(**OPTIONS.kwargs)) as sim:
        transport = InProcessTransport(wrap(sim.app, sim.api_key))
        try:
            yield _target(sim.url, sim.control, transport)
        finally:
            transport.close()


@pytest.fixture
def simulator(billing_sim_server: BillingSim) -> Target:
    return _target(billing_sim_server.url, billing_sim_server.control)
