"""Configuration shared by `BillingClient` and `AsyncBillingClient`.

Both twins take the same settings and build the same flows; they differ only in how they
drive a flow (blocking or awaiting). Secrets come from the caller or the environment
(`BILLING_API_URL`, `BILLING_API_KEY`), never from code.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

import httpx

from client.breaker import CircuitBreaker
from client.call import CallFlow, CallSettings, call_flow
from client.models.operations import OPERATIONS
from client.request import prepare_request
from client.retry import RandomSource, RetryPolicy, default_rng
from client.timeouts import Timeouts

ENV_BASE_URL = "BILLING_API_URL"
ENV_API_KEY = "BILLING_API_KEY"


def new_idempotency_key() -> str:
    """A fresh key for one payment (32 hex digits, inside the contract's 8-64 pattern)."""
    return uuid.uuid4().hex


def _setting(value: str | None, env: str, what: str) -> str:
    found = value if value is not None else os.environ.get(env)
    if not found:
        raise ValueError(f"billing client needs {what}: pass it or set {env}")
    return found


class ClientCore:
    """Settings, and the flow of one call, for either twin.

    `clock` (monotonic seconds) and `rng` are injectable so tests decide time and jitter;
    the breaker gets the same clock unless one is passed in (share one breaker between a
    sync and an async client that talk to the same API).
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeouts: Timeouts | None = None,
        retry: RetryPolicy | None = None,
        breaker: CircuitBreaker | None = None,
        clock: Callable[[], float] = time.monotonic,
        rng: RandomSource | None = None,
        idempotency_key_factory: Callable[[], str] = new_idempotency_key,
    ) -> None:
        self.base_url = httpx.URL(_setting(base_url, ENV_BASE_URL, "a base URL"))
        self._api_key = _setting(api_key, ENV_API_KEY, "an API key")
        self.timeouts = timeouts or Timeouts()
        self.breaker = breaker or CircuitBreaker(clock=clock)
        self._settings = CallSettings(
            base_url=str(self.base_url).rstrip("/"),
            timeouts=self.timeouts,
            retry=retry or RetryPolicy(),
            breaker=self.breaker,
            clock=clock,
            rng=rng or default_rng(),
        )
        self._new_idempotency_key = idempotency_key_factory

    @property
    def clock(self) -> Callable[[], float]:
        return self._settings.clock

    def _flow(
        self,
        operation_id: str,
        arguments: Mapping[str, Any] | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> CallFlow:
        """The flow of one call; a bad argument raises `ValidationError` here, before any I/O."""
        operation = OPERATIONS[operation_id]
        prepared = prepare_request(
            operation, api_key=self._api_key, arguments=arguments or {}, body=body
        )
        return call_flow(operation, prepared, self._settings)

    def _payment_arguments(
        self, account_number: str, idempotency_key: str | None
    ) -> dict[str, Any]:
        """One key per call, reused by every retry of it: that is what makes retrying safe."""
        key = idempotency_key if idempotency_key is not None else self._new_idempotency_key()
        return {"account_number": account_number, "idempotency_key": key}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={str(self.base_url)!r})"
