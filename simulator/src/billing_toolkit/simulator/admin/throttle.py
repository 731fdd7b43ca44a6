"""The admin bearer, throttled: wrong admin tokens slow their sender down.

Each admin endpoint is wrapped: an address that must wait (`webconsole.throttle`) gets a
429 problem with `Retry-After` before its token is even looked at; a 401 from the endpoint
counts as one failure of that address (and of the admin account), any other answer clears
the address. The QA console's sign-in shares the same throttle: one token, one account.
"""

from __future__ import annotations

from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from billing_toolkit.simulator.console.session import ADMIN_ACCOUNT
from billing_toolkit.simulator.endpoint import render, request_id_in
from billing_toolkit.simulator.problems import problem
from billing_toolkit.webconsole.throttle import SignInThrottle, client_address


def throttled_answer(scope: Scope, wait: int) -> Response:
    """The 429 problem of an address that must wait `wait` seconds."""
    reply = problem(
        429,
        "rate_limited",
        f"Too many requests with a wrong admin token from this address; retry in {wait} s.",
        headers={"Retry-After": str(wait)},
    )
    rendered = render(reply, request_id_in(scope), scope["path"])
    return Response(rendered.body, rendered.status, rendered.headers, rendered.media_type)


class ThrottledAdmin:
    """One admin endpoint behind the sign-in throttle."""

    def __init__(self, app: ASGIApp, throttle: SignInThrottle) -> None:
        self.app, self.throttle = app, throttle

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = client_address(scope)
        if wait := self.throttle.wait_s(address, ADMIN_ACCOUNT):
            await throttled_answer(scope, wait)(scope, receive, send)
            return
        status = 0

        async def watched(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        await self.app(scope, receive, watched)
        if status == 401:
            self.throttle.failed(address, ADMIN_ACCOUNT)
        elif status:
            self.throttle.succeeded(address)
