"""`AsyncBillingClient`: the awaitable twin of `BillingClient`, same methods, same rules.

The methods are generated (`AsyncBillingMethods`, from the same template as the blocking
ones); this class only supplies how a call is driven when awaiting.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import aclosing, closing
from typing import Self, Unpack

import anyio
import httpx

from billing_toolkit.client.base import ClientCore, ClientOptions
from billing_toolkit.client.call import Effect, Reply, Send, Sleep, advance
from billing_toolkit.client.models.methods import AsyncBillingMethods
from billing_toolkit.client.operation import ClientOperation, M
from billing_toolkit.client.request import Arguments, Body
from billing_toolkit.client.transport import Exchange


class AsyncBillingClient(ClientCore, AsyncBillingMethods):
    """Awaitable client of the billing API; see `BillingClient` for the contract of each method.

    Pass `transport=httpx.ASGITransport(app)` to talk to an in-process server. A cancelled
    call (task cancellation, a timeout around it) releases its breaker ticket, so a cancelled
    probe never leaves the circuit stuck in HALF_OPEN.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Callable[[float], Awaitable[None]] = anyio.sleep,
        **options: Unpack[ClientOptions],
    ) -> None:
        super().__init__(base_url, api_key, **options)
        self._sleep = sleep
        self._http = httpx.AsyncClient(transport=transport)

    # -- lifecycle ------------------------------------------------------------------------

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    # -- driving a call -------------------------------------------------------------------

    async def _call(self, operation: ClientOperation[M], args: Arguments, body: Body = None) -> M:
        flow = self._flow(operation, args, body)
        with closing(flow):
            step = advance(flow, None)
            while isinstance(step, Send | Sleep):
                step = advance(flow, await self._perform(step))
        return step

    async def _perform(self, effect: Effect) -> Reply:
        if isinstance(effect, Sleep):
            await self._sleep(effect.seconds)
            return None
        with Exchange(effect, self.clock) as exchange:
            exchange.response = await self._http.send(exchange.request, stream=True)
            async with aclosing(exchange.response):
                async for chunk in exchange.response.aiter_bytes():
                    exchange.add(chunk)
        return exchange.reply
