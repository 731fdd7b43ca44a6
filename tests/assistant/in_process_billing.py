"""The assistant's runtime pointed at the `billing_sim` fixture's in-process simulator."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from anyio.from_thread import start_blocking_portal

from billing_toolkit.client import BlockingASGITransport
from billing_toolkit.pytest_plugin import BillingSim


@contextmanager
def billing_sim_runtime(sim: BillingSim) -> Iterator[dict[str, Any]]:
    """`open_assistant` / `open_pipelines` options that reach `sim` as its own clients do:
    no socket, retry waits on the test's virtual clock. Every client built with them shares
    one transport on one event loop, which stops when the block ends (close the clients
    first)."""
    clock = sim.fault_clock
    if clock is None:
        raise ValueError("billing_sim_runtime needs the in-process billing_sim, not the server")
    with start_blocking_portal() as portal:
        yield {
            "transport": BlockingASGITransport(sim.app, portal),
            "client_options": {"clock": clock, "sleep": clock.sleep_sync},
        }
