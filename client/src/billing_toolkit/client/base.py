"""Configuration shared by `BillingClient` and `AsyncBillingClient`.

Both twins take the same settings and build the same flows; they differ only in how they
drive a flow (blocking or awaiting). Their typed methods are generated
(`billing_toolkit.client.models.methods`), each one call into the twin's driver with the
operation's binding and its arguments by wire name. Secrets come from the caller or the
environment (`BILLING_API_URL`, `BILLING_API_KEY`), never from code.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable
from typing import TypedDict, Unpack

import httpx

from billing_toolkit.client.breaker import CircuitBreaker
from billing_toolkit.client.call import CallFlow, CallSettings, call_flow
from billing_toolkit.client.operation import ClientOperation, M
from billing_toolkit.client.request import Arguments, Body, prepare_request
from billing_toolkit.client.retry import IDEMPOTENCY_HEADER, RandomSource, RetryPolicy, default_rng
from billing_toolkit.client.timeouts import Timeouts

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


def base_url_of(value: str | None) -> httpx.URL:
    """The API's base URL: `http` or `https`, a host and a valid port, or ValueError at
    construction.

    `httpx` would take `notaurl` as a relative URL and fail on the first call, where the
    assistant reads any failure as an outage and hands the subscriber to a person. A wrong
    setting must surface where it is made, so the bias is to refuse."""
    text = _setting(value, ENV_BASE_URL, "a base URL")
    try:
        url = httpx.URL(text)
    except httpx.InvalidURL as error:
        raise ValueError(f"billing client base URL {text!r} is not a URL: {error}") from error
    port_ok = url.port is None or 1 <= url.port <= 65535
    if (
        url.scheme not in ("http", "https")
        or not url.host
        or not port_ok
        or any(c.isspace() for c in text)
    ):
        raise ValueError(
            f"billing client base URL must be http(s)://HOST[:PORT][/PATH], "
            f"got {text!r} (from the argument or ${ENV_BASE_URL})"
        )
    return url


def api_key_of(value: str | None) -> str:
    """The bearer key: printable ASCII without spaces, or ValueError that does not quote it
    (a key pasted with its newline would otherwise fail inside httpx on every call)."""
    key = _setting(value, ENV_API_KEY, "an API key")
    if not (key.isascii() and key.isprintable()) or any(c.isspace() for c in key):
        raise ValueError(
            f"billing client API key (from the argument or ${ENV_API_KEY}) holds "
            "spaces, control or non-ASCII characters; a key is one printable token"
        )
    return key


class ClientOptions(TypedDict, total=False):
    """The keyword options both twins take, written once: each twin's `__init__` spells them
    out as `**options: Unpack[ClientOptions]`, so an IDE completes them and a type checker
    refuses a misspelt or mistyped one, while the list and its defaults live only here."""

    timeouts: Timeouts
    """Per-attempt and per-call time limits (default `Timeouts()`: 2 s, 5 s, 10 s in all)."""
    retry: RetryPolicy
    """When and how long to wait before trying again (default `RetryPolicy()`)."""
    breaker: CircuitBreaker
    """Share one breaker between clients of the same API (default: a fresh one on `clock`)."""
    clock: Callable[[], float]
    """Monotonic seconds, injectable so tests decide time (default `time.monotonic`)."""
    rng: RandomSource
    """The jitter's randomness, injectable so tests are exact (default: a private RNG)."""
    idempotency_key_factory: Callable[[], str]
    """A fresh Idempotency-Key per call that takes one (default `new_idempotency_key`)."""


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
        **options: Unpack[ClientOptions],
    ) -> None:
        if unknown := sorted(options.keys() - ClientOptions.__optional_keys__):
            # What an explicit keyword list did for free: a misspelt option is no default.
            raise TypeError(f"{type(self).__name__}() got unknown option(s) {', '.join(unknown)}")
        self.base_url = base_url_of(base_url)
        self._api_key = api_key_of(api_key)
        clock = options.get("clock", time.monotonic)
        self.timeouts = options.get("timeouts") or Timeouts()
        self.breaker = options.get("breaker") or CircuitBreaker(clock=clock)
        self._settings = CallSettings(
            base_url=str(self.base_url).rstrip("/"),
            timeouts=self.timeouts,
            retry=options.get("retry") or RetryPolicy(),
            breaker=self.breaker,
            clock=clock,
            rng=options.get("rng") or default_rng(),
        )
        self._new_idempotency_key = options.get("idempotency_key_factory", new_idempotency_key)

    @property
    def clock(self) -> Callable[[], float]:
        return self._settings.clock

    def _flow(
        self,
        operation: ClientOperation[M],
        arguments: Arguments,
        body: Body,
    ) -> CallFlow[M]:
        """The flow of one call; a bad argument raises `ValidationError` here, before any I/O.

        An operation that takes an Idempotency-Key gets a fresh one when the caller passed
        none: one key per call, reused by every retry of it, is what makes retrying safe.
        """
        if (
            operation.contract.parameter("header", IDEMPOTENCY_HEADER) is not None
            and arguments.get(IDEMPOTENCY_HEADER) is None
        ):
            arguments = {**arguments, IDEMPOTENCY_HEADER: self._new_idempotency_key()}
        prepared = prepare_request(operation, api_key=self._api_key, arguments=arguments, body=body)
        return call_flow(operation, prepared, self._settings)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={str(self.base_url)!r})"
