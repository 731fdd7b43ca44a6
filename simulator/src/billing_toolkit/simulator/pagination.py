"""Opaque, tamper-evident cursors for keyset pagination.

A cursor names the sort key of the last item served and is bound to the list it came
from (kind, account and filters) with an HMAC, so a cursor that was edited, truncated or
taken from another list is refused (`400`), never silently reinterpreted. Keyset (not
offset) pagination means a new invoice issued between two pages never makes an item
appear twice or vanish.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


class BadCursor(ValueError):
    """The cursor was not issued for this list."""


class Cursors:
    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def _sign(self, scope: str, key: str) -> str:
        return hmac.new(self._secret, f"{scope}\n{key}".encode(), hashlib.sha256).hexdigest()[:16]

    def encode(self, scope: str, key: str) -> str:
        raw = f"{key}|{self._sign(scope, key)}".encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def decode(self, scope: str, cursor: str) -> str:
        try:
            raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        except (ValueError, UnicodeDecodeError):
            raise BadCursor("is not a cursor issued by this API") from None
        key, _, signature = raw.rpartition("|")
        if not key or not hmac.compare_digest(signature, self._sign(scope, key)):
            raise BadCursor("is not a cursor issued for this list")
        return key

    def page(
        self,
        items: Sequence[T],
        sort_key: Callable[[T], str],
        scope: str,
        limit: int,
        cursor: str | None,
    ) -> tuple[list[T], str | None]:
        """Items sorted newest first (descending `sort_key`), after the cursor's key."""
        ordered = sorted(items, key=sort_key, reverse=True)
        if cursor is not None:
            last = self.decode(scope, cursor)
            ordered = [item for item in ordered if sort_key(item) < last]
        chunk = ordered[:limit]
        more = len(ordered) > limit
        return chunk, self.encode(scope, sort_key(chunk[-1])) if more else None
