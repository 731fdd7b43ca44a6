"""The agents' doors, guarded: the inbox's sign-in and the handoff bearer are throttled, and
inbox sessions live in the store, so a copied cookie stops working at sign-out.

Both use the store every replica shares (`store.sign_ins`): failures counted by one replica
slow the guesser on all of them, a session ended on one is ended everywhere. The rules are
`billing_toolkit.webconsole.throttle`'s (per address, and per agent named on the form); the
store is called off the event loop, as every other store call of the channel is.
"""

from __future__ import annotations

import asyncio
import time

from billing_toolkit.assistant.channel.service import ChannelService
from billing_toolkit.webconsole.throttle import SignInThrottle


class SignInGuard:
    """The shared throttle and live sessions of one service's store."""

    def __init__(self, service: ChannelService) -> None:
        self._sign_ins = service.store.sign_ins
        self._throttle = SignInThrottle(self._sign_ins, self._sign_ins.clock)

    async def wait_s(self, address: str, account: str | None = None) -> int:
        """Seconds `address` must wait before it may present a token (0: now)."""
        return await asyncio.to_thread(self._throttle.wait_s, address, account)

    async def failed(self, address: str, account: str | None = None) -> None:
        await asyncio.to_thread(self._throttle.failed, address, account)

    async def succeeded(self, address: str) -> None:
        await asyncio.to_thread(self._throttle.succeeded, address)

    async def open_session(self, sid: str, seconds: float) -> None:
        """Sessions live on the wall clock, as the cookie's own signed expiry does (the
        store's clock may be a test's, stepping on every reading)."""
        await asyncio.to_thread(self._sign_ins.open, sid, time.time() + seconds)

    async def session_open(self, sid: str) -> bool:
        return await asyncio.to_thread(self._sign_ins.is_open, sid, time.time())

    async def close_session(self, sid: str) -> None:
        await asyncio.to_thread(self._sign_ins.close, sid)


def retry_after(wait: int) -> dict[str, str]:
    return {"Retry-After": str(wait)}
