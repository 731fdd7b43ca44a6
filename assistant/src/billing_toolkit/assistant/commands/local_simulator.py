"""The billing simulator started inside this process, for `ask`, `chat` and `eval`.

A CLI convenience and the one place the assistant imports the simulator — lazily, inside
`start_local_simulator`, so the assistant package never needs it otherwise. The simulator is
reached through `BlockingASGITransport` (no socket, no port), and its in-process control
handle gives the evaluation the dataset's roles and the fault rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from anyio.from_thread import start_blocking_portal

from billing_toolkit.assistant.commands.long_lived import long_lived_objects
from billing_toolkit.client.asgi import BlockingASGITransport

LOCAL_BASE_URL = "http://simulator.local"
"""Any URL will do in-process; this one says where the requests go."""


class LocalSimulator:
    """A running in-process simulator: its app, control handle, dataset info and transport."""

    def __init__(self, app: Any, control: Any, transport: BlockingASGITransport) -> None:
        self.app = app
        self.control = control
        self.transport = transport

    def info(self) -> dict[str, Any]:
        """`billing-sim info` of the live state (tenants, API keys, sample customers…)."""
        info: dict[str, Any] = self.control.info()
        return info

    def tenant(self, tenant_id: str) -> dict[str, Any]:
        """One tenant's entry of `info()`; ValueError naming the known ones otherwise."""
        tenants = {t["tenant_id"]: t for t in self.info()["tenants"]}
        if tenant_id not in tenants:
            raise ValueError(
                f"the simulator has no tenant {tenant_id!r}: "
                f"expected one of {', '.join(sorted(tenants))}"
            )
        return dict(tenants[tenant_id])


@contextmanager
def start_local_simulator(
    seed: int = 42, customers_per_tenant: int | None = None
) -> Iterator[LocalSimulator]:
    """Generate the dataset of `seed` and serve it in-process (about a second for 300
    customers per tenant) until the `with` block ends. Raises ValueError for a bad seed or size.
    The simulator's modules and dataset live as long as the command (`long_lived_objects`)."""
    with long_lived_objects():
        from billing_toolkit.simulator import (  # CLI convenience only
            SimulatorConfig,
            control_of,
            create_app,
        )

        config = SimulatorConfig(seed=seed)
        if customers_per_tenant is not None:
            config.customers_per_tenant = customers_per_tenant
        app = create_app(config)
    with start_blocking_portal() as portal:
        yield LocalSimulator(app, control_of(app), BlockingASGITransport(app, portal))
