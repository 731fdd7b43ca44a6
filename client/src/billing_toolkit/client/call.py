"""One call from first attempt to verdict: breaker, attempts, retries, budget (no I/O).

`call_flow` is a generator that *asks* for I/O instead of doing it: it yields `Send` (one
HTTP exchange) and `Sleep` (a backoff wait) and receives the answer, or has the network
failure thrown into it. The sync and async clients drive the same flow with their own
httpx client and sleep, so every rule (what is retried, what the breaker hears, when the
budget is spent) exists once and is tested with no network and no clock. `advance` is the
one step of driving it, so a twin's driver is only "perform the effect, advance".
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx

from billing_toolkit.client.breaker import CircuitBreaker, CircuitState
from billing_toolkit.client.errors import APITimeoutError, BusinessError, InfrastructureError
from billing_toolkit.client.operation import ClientOperation, M
from billing_toolkit.client.request import PreparedRequest
from billing_toolkit.client.responses import RawResponse, decode
from billing_toolkit.client.retry import RandomSource, RetryPolicy
from billing_toolkit.client.timeouts import Timeouts

logger = logging.getLogger("client")


@dataclass(frozen=True, slots=True)
class Send:
    """Send `request` with these per-attempt timeouts; stop reading the body at `deadline`."""

    operation_id: str
    request: httpx.Request
    timeout: httpx.Timeout
    deadline: float


@dataclass(frozen=True, slots=True)
class Sleep:
    seconds: float


Effect = Send | Sleep
CallFlow = Generator[Effect, RawResponse | None, M]
Y = TypeVar("Y")
V = TypeVar("V")

Reply = RawResponse | InfrastructureError | None
"""What performing an effect came to: the answer, the infrastructure failure the exchange
ended in, or nothing (a sleep)."""


@dataclass(frozen=True, slots=True)
class CallSettings:
    """Everything a call's flow needs besides the request itself."""

    base_url: str
    timeouts: Timeouts
    retry: RetryPolicy
    breaker: CircuitBreaker
    clock: Callable[[], float]
    rng: RandomSource


def call_flow(
    operation: ClientOperation[M], prepared: PreparedRequest, settings: CallSettings
) -> CallFlow[M]:
    """Attempts the prepared request until it succeeds, fails for good, or the budget is spent.

    Each attempt asks the breaker first (an open circuit raises `CircuitOpenError` with no
    request sent and no retry); its outcome is reported to the breaker: an infrastructure
    failure as a failure, data or a business "no" as a success, and a cancellation as
    neither. Failures the policy calls retryable are retried after its delay.
    """
    operation_id = operation.contract.operation_id
    clock = settings.clock
    deadline = clock() + settings.timeouts.total
    attempts = 0
    request: httpx.Request | None = None
    while True:
        remaining = deadline - clock()
        if remaining <= 0:
            raise APITimeoutError(
                "the call's time budget ran out before the next attempt",
                operation_id=operation_id,
            )
        ticket = settings.breaker.acquire()
        attempts += 1
        try:
            request = request or prepared.to_httpx(settings.base_url)
            timeout = settings.timeouts.for_attempt(remaining)
            raw = yield Send(operation_id, request, timeout, deadline)
            assert raw is not None, "a Send is answered with a response or an error"
            result = decode(operation, raw)
        except BusinessError:
            settings.breaker.record_success(ticket)
            raise
        except InfrastructureError as exc:
            settings.breaker.record_failure(ticket)
            failure = exc
        except BaseException:
            settings.breaker.release(ticket)
            raise
        else:
            settings.breaker.record_success(ticket)
            return result
        if settings.breaker.state is not CircuitState.CLOSED:
            raise failure  # the circuit opened: waiting to retry would only be refused
        delay = settings.retry.delay_before_retry(
            operation.contract, failure, attempts, deadline - clock(), settings.rng
        )
        if delay is None:
            raise failure
        logger.info(
            "retrying %s in %.3fs after %s (attempt %d failed)",
            operation_id,
            delay,
            type(failure).__name__,
            attempts,
        )
        yield Sleep(delay)


def advance(
    flow: Generator[Y, Any, V], reply: Any, failure: type[BaseException] = InfrastructureError
) -> Y | V:
    """The flow's next effect once `reply` is handed back to it, or its verdict when it has one.

    A `failure` is thrown into the flow (the attempt that asked for the exchange decides what
    it means); anything else is sent. Start a flow with `advance(flow, None)`. A call's flow
    fails with `InfrastructureError`; a capability's flow (`capabilities.py`) with any
    `BillingError`.
    """
    try:
        if isinstance(reply, failure):
            return flow.throw(reply)
        return flow.send(reply)
    except StopIteration as done:
        verdict: V = done.value
        return verdict
