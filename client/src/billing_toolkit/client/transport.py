"""What the sync and async clients share at the network edge: one exchange, whoever performs it.

httpx says *how* an exchange failed; the client's families say *what it means*. A timeout
is `APITimeoutError`; anything else that broke the connection (refused, reset, closed
before or during the answer) is `APIConnectionError`; bytes that cannot be decoded are a
`MalformedResponseError`. All three are infrastructure: an outage, never a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import Self

import httpx

from billing_toolkit.client.call import Send
from billing_toolkit.client.errors import (
    APIConnectionError,
    APITimeoutError,
    InfrastructureError,
    MalformedResponseError,
)
from billing_toolkit.client.responses import RawResponse


def infrastructure_error(exc: httpx.RequestError, operation_id: str) -> InfrastructureError:
    """The client error for an httpx failure (its text names the cause, never the URL)."""
    cause = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if isinstance(exc, httpx.TimeoutException):
        return APITimeoutError(f"timed out ({cause})", operation_id=operation_id)
    if isinstance(exc, httpx.DecodingError):
        return MalformedResponseError(f"undecodable body ({cause})", operation_id=operation_id)
    return APIConnectionError(f"connection failed ({cause})", operation_id=operation_id)


class Exchange:
    """One `Send` performed by either twin, and what it came to.

    The twins differ only in how they send the request and read the streamed body (blocking
    or awaiting), which they do inside `with Exchange(...)`, setting `response` and handing
    each chunk to `add`. Everything else happens here once: the attempt's timeouts go on the
    request, the body is cut off when the call's total budget runs out (httpx's read timeout
    bounds the wait for each chunk, not the whole body, so a server that drips one byte at a
    time would never time out otherwise), and an httpx failure becomes the client's
    infrastructure error. That error is kept as the `reply` rather than raised, so the flow
    hears a failure the same way whichever twin met it; anything else (a cancellation)
    propagates.
    """

    def __init__(self, effect: Send, clock: Callable[[], float]) -> None:
        effect.request.extensions["timeout"] = effect.timeout.as_dict()
        self.request = effect.request
        self.response: httpx.Response | None = None
        self._effect = effect
        self._clock = clock
        self._parts: list[bytes] = []
        self._failure: InfrastructureError | None = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool:
        if isinstance(exc, httpx.RequestError):
            self._failure = infrastructure_error(exc, self._effect.operation_id)
            self._failure.__cause__ = exc  # as `raise ... from exc`: the cause stays visible
        elif isinstance(exc, InfrastructureError):
            self._failure = exc
        return self._failure is not None

    def add(self, chunk: bytes) -> None:
        """One more chunk of the body; raises `APITimeoutError` once past the deadline."""
        self._parts.append(chunk)
        if self._clock() > self._effect.deadline:
            raise APITimeoutError(
                "the body was still arriving when the call's time budget ran out",
                operation_id=self._effect.operation_id,
            )

    @property
    def reply(self) -> RawResponse | InfrastructureError:
        """The whole answer, or the failure the exchange ended in."""
        if self._failure is not None:
            return self._failure
        assert self.response is not None, "an exchange without a failure has a response"
        return RawResponse(self.response.status_code, self.response.headers, b"".join(self._parts))
