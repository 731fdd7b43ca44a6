"""Fixtures for the simulator tests: a small dataset, the app in-process, helpers."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from billing_toolkit.simulator import ManualClock, SimulatorConfig, control_of, create_app
from billing_toolkit.simulator.control import SimulatorControl
from billing_toolkit.simulator.logs import LOGGER_NAMES

SMALL = 16
"""Customers per tenant in tests: every role exists, generation takes a few ms."""
ADMIN = {"Authorization": "Bearer test-admin-token"}


def small_config(**overrides: Any) -> SimulatorConfig:
    """The reference engine, loud contract violations, a manual fault clock."""
    settings: dict[str, Any] = {
        "customers_per_tenant": SMALL,
        "validation_engine": "openapi-core",
        "raise_on_invalid_response": True,
        "admin_token": "test-admin-token",
        "clock": ManualClock(),
    }
    settings.update(overrides)
    return SimulatorConfig(**settings)


class Sim:
    """An app, its control, a test client and the dataset info, for one test."""

    def __init__(self, config: SimulatorConfig) -> None:
        self.config = config
        self.app = create_app(config)
        self.control: SimulatorControl = control_of(self.app)
        self.client = TestClient(self.app)
        self.info = self.control.info()
        self.fibranet, self.llanolink = self.info["tenants"]

    @property
    def clock(self) -> ManualClock:
        assert isinstance(self.config.clock, ManualClock)
        return self.config.clock

    def auth(self, tenant: dict[str, Any] | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {(tenant or self.fibranet)['api_key']}"}

    def sample(self, role: str, tenant: dict[str, Any] | None = None) -> dict[str, Any]:
        found = (tenant or self.fibranet)["samples"][role]
        assert found is not None, f"the dataset has no {role} customer"
        return found

    def get(self, path: str, tenant: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        return self.client.get(
            path, headers={**self.auth(tenant), **kwargs.pop("headers", {})}, **kwargs
        )

    def pay(
        self,
        account: str,
        key: str,
        amount: str = "10.00",
        currency: str = "USD",
        method: str = "pago_movil",
    ) -> Any:
        return self.client.post(
            f"/v1/customers/{account}/payments",
            headers={**self.auth(), "Idempotency-Key": key},
            json={
                "amount": amount,
                "currency": currency,
                "method": method,
                "reference": "004512873301",
            },
        )


@pytest.fixture(autouse=True)
def _restore_loggers() -> Iterator[None]:
    """`configure_logging` (a test's, or `serve`'s when `main` runs here) sets process-wide
    loggers on a stream that pytest closes after the test: put them back, and close what
    the test added (its writer thread stops), so a later test's server never logs into a
    closed stream."""
    loggers = [logging.getLogger(name) for name in LOGGER_NAMES]
    saved = [(logger, logger.handlers[:], logger.level, logger.propagate) for logger in loggers]
    yield
    for logger, handlers, level, propagate in saved:
        for added in set(logger.handlers) - set(handlers):
            added.close()
        logger.handlers, logger.propagate = handlers, propagate
        logger.setLevel(level)


@pytest.fixture
def sim() -> Iterator[Sim]:
    simulator = Sim(small_config())
    with simulator.client:
        yield simulator


@pytest.fixture
def fast_sim() -> Iterator[Sim]:
    """The compiled engine (the serving default)."""
    simulator = Sim(small_config(validation_engine="compiled"))
    with simulator.client:
        yield simulator
