"""Reading a request body with a ceiling, while it streams in.

A body is never buffered whole before it is known to fit: a declared `Content-Length`
over the limit is refused before the first chunk is read, and a body without one (chunked)
is counted chunk by chunk and refused as soon as it passes the limit. Bias: refuse — a
client that needs more than the limit is not one this API serves.
"""

from __future__ import annotations

from starlette.requests import ClientDisconnect
from starlette.types import Receive


class BodyTooLarge(Exception):
    """The body is (or declares itself) larger than the limit."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"is larger than the limit of {limit} bytes")
        self.limit = limit


def declared_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    """The `Content-Length` the client declared (None when absent or not a number)."""
    for key, value in headers:
        if key == b"content-length":
            return int(value) if value.isdigit() else None
    return None


async def read_body(receive: Receive, limit: int, declared: int | None = None) -> bytes:
    """The whole body if it fits in `limit` bytes; `BodyTooLarge` as soon as it cannot."""
    if declared is not None and declared > limit:
        raise BodyTooLarge(limit)
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnect()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(limit)
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)
