"""`BillingClient`: one blocking method per contract operation, on httpx.

The methods are generated (`BillingMethods`, from the contract); this class only supplies
how a call is driven when blocking: perform each effect the call's flow asks for with an
httpx client and a sleep, and hand back what it came to.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import closing
from typing import Self, Unpack

import httpx

from billing_toolkit.client.base import ClientCore, ClientOptions
from billing_toolkit.client.call import Effect, Reply, Send, Sleep, advance
from billing_toolkit.client.models.methods import BillingMethods
from billing_toolkit.client.operation import ClientOperation, M
from billing_toolkit.client.request import Arguments, Body
from billing_toolkit.client.transport import Exchange


class BillingClient(ClientCore, BillingMethods):
    """Blocking client of the billing API.

    Every method returns the contract's model for the operation, or raises a
    `BusinessError` (the API said no) or an `InfrastructureError` (it did not work); see
    `billing_toolkit.client.errors`. `transport` is the seam for tests (respx, `httpx.MockTransport`, or an
    in-process ASGI app through `httpx.ASGITransport` for the async twin).
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        **options: Unpack[ClientOptions],
    ) -> None:
        super().__init__(base_url, api_key, **options)
        self._sleep = sleep
        self._http = httpx.Client(transport=transport)

    # -- lifecycle ------------------------------------------------------------------------

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- driving a call -------------------------------------------------------------------

    def _call(self, operation: ClientOperation[M], args: Arguments, body: Body = None) -> M:
        flow = self._flow(operation, args, body)
        with closing(flow):
            step = advance(flow, None)
            while isinstance(step, Send | Sleep):
                step = advance(flow, self._perform(step))
        return step

    def _perform(self, effect: Effect) -> Reply:
        if isinstance(effect, Sleep):
            self._sleep(effect.seconds)
            return None
        with Exchange(effect, self.clock) as exchange:
            exchange.response = self._http.send(exchange.request, stream=True)
            with closing(exchange.response):
                for chunk in exchange.response.iter_bytes():
                    exchange.add(chunk)
        return exchange.reply
