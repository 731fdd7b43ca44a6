"""Per-conversation locks: one at a time per key, first come first served, none kept idle."""

from __future__ import annotations

import asyncio

from billing_toolkit.assistant.channel.keyed_locks import KeyedLocks


def test_same_key_runs_in_arrival_order_other_keys_in_parallel() -> None:
    async def scenario() -> tuple[list[str], int]:
        locks = KeyedLocks()
        order: list[str] = []
        release = asyncio.Event()

        async def holder() -> None:
            async with locks.hold("maria"):
                order.append("first in")
                await release.wait()
                order.append("first out")

        async def waiter(name: str, key: str) -> None:
            async with locks.hold(key):
                order.append(name)

        tasks = [asyncio.create_task(holder())]
        await asyncio.sleep(0)
        tasks += [
            asyncio.create_task(waiter("second", "maria")),
            asyncio.create_task(waiter("jose", "jose")),
            asyncio.create_task(waiter("third", "maria")),
        ]
        await asyncio.sleep(0)
        release.set()
        await asyncio.gather(*tasks)
        return order, len(locks)

    order, left = asyncio.run(scenario())
    assert order == ["first in", "jose", "first out", "second", "third"]
    assert left == 0
