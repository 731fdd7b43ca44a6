"""Fixtures of the client's tests: a clock that tests move, a seeded RNG, client factories."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import respx

from billing_toolkit.client import AsyncBillingClient, BillingClient, CircuitBreaker
from billing_toolkit.client.breaker import BreakerConfig
from tests.client.payloads import API_KEY, BASE_URL


class FakeClock:
    """Monotonic seconds that only move when a test (or an injected sleep) moves them."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    async def async_sleep(self, seconds: float) -> None:
        self.sleep(seconds)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def api() -> Iterator[respx.MockRouter]:
    """A respx router on the contract's server URL; every route must be declared."""
    with respx.mock(base_url=BASE_URL, assert_all_called=False) as router:
        yield router


def _settings(clock: FakeClock, overrides: dict[str, Any]) -> dict[str, Any]:
    settings: dict[str, Any] = {"clock": clock, "rng": random.Random(7)}
    settings.update(overrides)
    if "breaker" not in settings:
        settings["breaker"] = CircuitBreaker(
            BreakerConfig(failure_threshold=5, reset_timeout=30.0), clock=clock
        )
    return settings


@pytest.fixture
def make_client(clock: FakeClock) -> Iterator[Callable[..., BillingClient]]:
    made: list[BillingClient] = []

    def make(**overrides: Any) -> BillingClient:
        client = BillingClient(BASE_URL, API_KEY, sleep=clock.sleep, **_settings(clock, overrides))
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()


@pytest.fixture
def make_async_client(clock: FakeClock) -> Callable[..., AsyncBillingClient]:
    def make(**overrides: Any) -> AsyncBillingClient:
        return AsyncBillingClient(
            BASE_URL, API_KEY, sleep=clock.async_sleep, **_settings(clock, overrides)
        )

    return make


@pytest.fixture(scope="session")
def openapi() -> Any:
    """The contract as an openapi-core object, built once (building it costs about a second)."""
    from openapi_core import OpenAPI

    from billing_toolkit.contract import OPENAPI_PATH

    return OpenAPI.from_file_path(str(OPENAPI_PATH))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
