"""Opening and closing simulators for tests, and the session's shared (read-only) ones.

Usable without pytest: `with open_billing_sim(SimOptions(seed=7)) as sim: ...` and
`with open_billing_sim(options, loopback=True) as sim: ...` (the benchmark does).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from billing_toolkit.pytest_plugin.handle import BillingSim
from billing_toolkit.pytest_plugin.options import SimOptions

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from billing_toolkit.pytest_plugin.virtual_time import VirtualTime

STARTUP_DEADLINE_S = 15.0
"""A loopback server that is not accepting connections by then fails the test."""


class SharedDatasetModified(AssertionError):
    """A test using `shared=True` changed the state other tests read."""


def build_app(options: SimOptions, loopback: bool) -> tuple[Starlette, VirtualTime | None]:
    """A fresh simulator app. In-process its fault clock is virtual (delays never wait);
    on loopback it is real, because socket faults are about real time."""
    from billing_toolkit.pytest_plugin.virtual_time import VirtualTime
    from billing_toolkit.simulator.app import create_app
    from billing_toolkit.simulator.config import SimulatorConfig

    virtual_time = None if loopback else VirtualTime()
    config = SimulatorConfig(
        seed=options.seed,
        customers_per_tenant=options.customers,
        raise_on_invalid_response=True,
    )
    if virtual_time is not None:
        config.clock = virtual_time
    return create_app(config), virtual_time


def _fingerprint(app: Starlette) -> tuple[int, Any, int]:
    """What a read-only test must leave as it found: the state object (reset and restore
    replace it), business time, and the payments recorded (one idempotency key each)."""
    from billing_toolkit.simulator.control import control_of

    store = control_of(app).store
    state = store.state
    return id(state), state.now, sum(len(keys) for keys in state.idempotency.values())


class SharedSimulators:
    """One app per (seed, customers, mode) for the session; rebuilt if a test spoiled it."""

    def __init__(self) -> None:
        self._apps: dict[tuple[int, int, bool], tuple[Starlette, VirtualTime | None]] = {}

    def get(self, options: SimOptions, loopback: bool) -> tuple[Starlette, VirtualTime | None]:
        key = (options.seed, options.customers, loopback)
        if key not in self._apps:
            self._apps[key] = build_app(options, loopback)
        return self._apps[key]

    def forget(self, options: SimOptions, loopback: bool) -> None:
        self._apps.pop((options.seed, options.customers, loopback), None)


@contextmanager
def open_billing_sim(
    options: SimOptions | None = None,
    *,
    loopback: bool = False,
    shared: SharedSimulators | None = None,
) -> Iterator[BillingSim]:
    """A simulator for one test; on loopback, served by uvicorn on 127.0.0.1:<free port>
    for the length of the block. `shared` is where `options.shared` apps are kept."""
    options = options or SimOptions()
    pool = shared if options.shared else None
    app, virtual_time = pool.get(options, loopback) if pool else build_app(options, loopback)
    before = _fingerprint(app)
    server = None
    if loopback:
        from billing_toolkit.simulator.server import serve_in_thread

        server = serve_in_thread(app, startup_timeout=STARTUP_DEADLINE_S)
    sim = BillingSim(app, options, url=server.url if server else None, virtual_time=virtual_time)
    try:
        yield sim
    finally:
        sim.close()
        sim.faults.clear()
        sim.faults.clear_events()
        sim.requests.clear()  # a shared simulator's next test counts only its own requests
        if server is not None:
            server.server.force_exit = True  # a dripping or held response is not waited for
            server.stop()
        if pool is not None and _fingerprint(app) != before:
            pool.forget(options, loopback)
            raise SharedDatasetModified(
                "billing_sim(shared=True) is read-only, and this test changed the state "
                "(moved the clock, recorded a payment, reset or restored): drop shared=True"
            )
