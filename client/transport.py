"""What the sync and async clients share at the network edge: error mapping and body reads.

httpx says *how* an exchange failed; the client's families say *what it means*. A timeout
is `APITimeoutError`; anything else that broke the connection (refused, reset, closed
before or during the answer) is `APIConnectionError`; bytes that cannot be decoded are a
`MalformedResponseError`. All three are infrastructure: an outage, never a crash.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx

from client.errors import (
    APIConnectionError,
    APITimeoutError,
    InfrastructureError,
    MalformedResponseError,
)


def infrastructure_error(exc: httpx.RequestError, operation_id: str) -> InfrastructureError:
    """The client error for an httpx failure (its text names the cause, never the URL)."""
    cause = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if isinstance(exc, httpx.TimeoutException):
        return APITimeoutError(f"timed out ({cause})", operation_id=operation_id)
    if isinstance(exc, httpx.DecodingError):
        return MalformedResponseError(f"undecodable body ({cause})", operation_id=operation_id)
    return APIConnectionError(f"connection failed ({cause})", operation_id=operation_id)


class BodyReader:
    """Collects a streamed body and stops it when the call's total budget runs out.

    httpx's read timeout bounds the wait for each chunk, not the whole body, so a server
    that drips one byte at a time would never time out; checking the deadline between
    chunks is what makes `Timeouts.total` a real bound.
    """

    def __init__(self, deadline: float, clock: Callable[[], float], operation_id: str) -> None:
        self._deadline = deadline
        self._clock = clock
        self._operation_id = operation_id
        self._parts: list[bytes] = []

    def add(self, chunk: bytes) -> None:
        self._parts.append(chunk)
        if self._clock() > self._deadline:
            raise APITimeoutError(
                "the body was still arriving when the call's time budget ran out",
                operation_id=self._operation_id,
            )

    def body(self) -> bytes:
        return b"".join(self._parts)
