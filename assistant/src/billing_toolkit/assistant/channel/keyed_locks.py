"""One asyncio lock per key, forgotten when nobody holds or waits for it.

The service keys them by conversation (tenant, phone): two messages of one subscriber are
processed one after the other, in arrival order (an asyncio lock wakes its waiters first in,
first out), while different subscribers proceed in parallel. The registry only holds locks in
use, so it does not grow with the number of subscribers ever seen.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: dict[Hashable, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        lock, users = self._locks.get(key) or (asyncio.Lock(), 0)
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def busy(self, key: Hashable) -> bool:
        """Whether someone holds or waits for `key`'s lock."""
        return key in self._locks

    def __len__(self) -> int:
        return len(self._locks)
