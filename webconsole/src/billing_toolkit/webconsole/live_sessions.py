"""Sessions the server knows: signing out ends a session for every copy of its cookie.

A signed cookie alone stays valid until it expires, so a copy taken before sign-out (a
shared machine, a proxy log) would still work for hours. Each console therefore keeps the
`sid` of every signed-in session in a `SessionRegistry` (in memory for the simulator, in the
assistant's store for its replicas), checks it on each request and removes it at sign-out.
Bias: signed out — a `sid` the registry does not hold is no session.
"""

from __future__ import annotations

import threading
from typing import Protocol

MAX_LIVE = 10_000
"""Sessions one process remembers; past it the oldest are dropped (signed out)."""


class SessionRegistry(Protocol):
    def open(self, sid: str, expires_at: float) -> None: ...

    def is_open(self, sid: str, now: float) -> bool: ...

    def close(self, sid: str) -> None: ...


class MemorySessions:
    """`SessionRegistry` of one process (the simulator's QA console)."""

    def __init__(self) -> None:
        self._expiry: dict[str, float] = {}
        self._lock = threading.Lock()

    def open(self, sid: str, expires_at: float) -> None:
        with self._lock:
            self._expiry[sid] = expires_at
            while len(self._expiry) > MAX_LIVE:  # dicts keep insertion order: oldest first
                del self._expiry[next(iter(self._expiry))]

    def is_open(self, sid: str, now: float) -> bool:
        return self._expiry.get(sid, 0.0) > now

    def close(self, sid: str) -> None:
        with self._lock:
            self._expiry.pop(sid, None)
