"""The pytest plugin: `billing_sim` (in-process) and `billing_sim_server` (loopback).

Registered through the `pytest11` entry point, so installing the package is enough. It
loads in every pytest run, so this module imports nothing heavy: the simulator is
imported by the fixtures, when a test asks for one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from billing_toolkit.pytest_plugin.options import OptionError, SimOptions

if TYPE_CHECKING:
    from billing_toolkit.pytest_plugin.handle import BillingSim
    from billing_toolkit.pytest_plugin.session import SharedSimulators

MARKER = "billing_sim"
_SHARED = pytest.StashKey["SharedSimulators"]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(seed=42, tenant='fibranet', customers=20, shared=False, "
        "emulate_socket_faults=False): options of the billing_sim and billing_sim_server "
        "fixtures",
    )


def _options(request: pytest.FixtureRequest) -> SimOptions:
    """Markers from the farthest (module) to the closest (function), then the parameter."""
    layers: list[dict[str, Any]] = [
        dict(marker.kwargs) for marker in reversed(list(request.node.iter_markers(MARKER)))
    ]
    param = getattr(request, "param", None)
    if param is not None:
        if not isinstance(param, dict):
            pytest.fail(
                f"{MARKER}: an indirect parameter must be a dict of options, got {param!r}",
                pytrace=False,
            )
        layers.append(param)
    try:
        return SimOptions.merged(*layers)
    except OptionError as error:
        pytest.fail(str(error), pytrace=False)


def _shared(config: pytest.Config) -> SharedSimulators:
    from billing_toolkit.pytest_plugin.session import SharedSimulators

    if _SHARED not in config.stash:
        config.stash[_SHARED] = SharedSimulators()
    return config.stash[_SHARED]


def _open(request: pytest.FixtureRequest, loopback: bool) -> Iterator[BillingSim]:
    from billing_toolkit.pytest_plugin.session import open_billing_sim

    with open_billing_sim(
        _options(request), loopback=loopback, shared=_shared(request.config)
    ) as sim:
        yield sim


@pytest.fixture
def billing_sim(request: pytest.FixtureRequest) -> Iterator[BillingSim]:
    """An in-process simulator (no socket, virtual time), fresh per test: `sim.client`,
    `sim.async_client`, `sim.info`, `sim.clock`, `sim.faults`, `sim.snapshot()`."""
    yield from _open(request, loopback=False)


@pytest.fixture
def billing_sim_server(request: pytest.FixtureRequest) -> Iterator[BillingSim]:
    """The same simulator served by uvicorn on 127.0.0.1 (free port, real time), for the
    faults that need a socket: timeouts, connection resets and drops, cut or slow bodies.
    `sim.url` is its base URL."""
    yield from _open(request, loopback=True)
