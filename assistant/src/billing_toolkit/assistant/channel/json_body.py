"""Reading a JSON request body within bounds: its size while it streams, its nesting depth
before it is parsed.

Python's parser recurses once per level of nesting, so a body of 100 000 `[` is a
`RecursionError` deep inside `json.loads` — a 500 for a client's mistake — and a body of any
size would be read whole before anyone looked at it. Here the declared length is checked
first, the stream is cut as soon as it passes the limit, and the depth is counted on the raw
bytes (strings blanked out, then the brackets summed in C) before the parser sees them. No
delivery or request of this service comes near either bound, so the bias is to refuse.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from starlette.requests import Request

MAX_DEPTH = 32
"""A WhatsApp delivery nests about eight deep; the handoff API's bodies two."""

_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS = b"[]{}"
_OTHER_BYTES = bytes(b for b in range(256) if b not in _BRACKETS)
_STEP = tuple(1 if b in b"[{" else -1 if b in b"]}" else 0 for b in range(256))


class BodyProblem(Exception):
    """A body refused before it was used; `status` and `code` say how to answer."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail


def too_large(limit: int) -> BodyProblem:
    return BodyProblem(413, "payload_too_large", f"The body is at most {limit} bytes.")


async def read_body(request: Request, limit: int) -> bytes:
    """The raw body, read only while it stays within `limit` bytes (413 beyond)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large(limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large(limit)
        chunks.append(chunk)
    return b"".join(chunks)


def nesting_depth(body: bytes) -> int:
    """How deep arrays and objects nest in `body` (brackets inside strings do not count).

    For a body that is not JSON the figure is approximate, and never below the depth the
    parser would reach before it failed."""
    structure = _STRING.sub(b"", body).translate(None, delete=_OTHER_BYTES)
    return max(accumulate(map(_STEP.__getitem__, structure)), default=0)


def parse_json(body: bytes, code: str, max_depth: int = MAX_DEPTH) -> Any:
    """The parsed body; a `BodyProblem` 400 with `code` if it nests deeper than `max_depth`
    or is not JSON."""
    depth = nesting_depth(body)
    if depth > max_depth:
        raise BodyProblem(
            400, code, f"The JSON nests {depth} levels deep; at most {max_depth} are accepted."
        )
    try:
        return json.loads(body)
    except ValueError as exc:
        raise BodyProblem(400, code, f"The body is not JSON: {exc}") from exc
