"""The headers of a page that shows private data, added to every answer of a console.

Why each: `no-store` (pages show phones, messages, admin state), `no-referrer` (URLs may hold
phones), `nosniff` and frame `DENY` (no content sniffing, no clickjacking), and a Content
Security Policy that allows only the console's own files. Bias: the console's headers win
over whatever a page set for the same names. Every answer means every one: a 404 or 405 the
console's router raises is answered here (not by the app around it, which would not add
them), and `bare_prefix_redirect` sends `/console` on to `/console/` with them too.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse, RedirectResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADERS = [
    (b"cache-control", b"no-store"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy",
     (b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
      b"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")),
]  # fmt: skip
_NAMES = {name for name, _ in HEADERS}


class PrivateHeaders:
    """Adds `HEADERS` to every response of the wrapped app (pages, redirects, files)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _NAMES]
                message = {**message, "headers": kept + HEADERS}
            await send(message)

        try:
            await self.app(scope, receive, with_headers)
        except HTTPException as error:  # raised before any answer started: ours to give
            answer = PlainTextResponse(error.detail, error.status_code, headers=error.headers)
            await answer(scope, receive, with_headers)


def bare_prefix_redirect(prefix: str) -> Route:
    """`prefix` itself (no slash) redirected to `prefix/`, with the private headers (the
    router's own slash redirect would go out without them)."""
    redirect = RedirectResponse(prefix + "/", status_code=307)
    return Route(prefix, PrivateHeaders(redirect))
