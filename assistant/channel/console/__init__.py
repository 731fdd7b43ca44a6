"""The agents' inbox: the handoff API as pages, for people (`/console` of `billing-assistant serve`).

    app.routes.append(console.mount())        # what create_channel_app does

Server-rendered (Starlette + Jinja2), with its CSS and a small script shipped in the
package — no build step, no CDN. Sign-in exchanges the tenant's agent token for a signed,
HttpOnly, SameSite=Strict session cookie (`session.py`); every form carries a CSRF token.
Every answer says `Cache-Control: no-store` (the pages show subscribers' phones and
messages), `Referrer-Policy: no-referrer` (their URLs hold phones) and a Content Security
Policy that allows only this console's own files.
"""

from __future__ import annotations

from pathlib import Path

from starlette.routing import Mount, Route, Router
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from billing_toolkit.assistant.channel.console import pages
from billing_toolkit.assistant.channel.console.pages import PREFIX, ConsolePages
from billing_toolkit.assistant.channel.console.session import SessionKeys

__all__ = ["PREFIX", "mount"]

HEADERS = [
    (b"cache-control", b"no-store"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy",
     (b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
      b"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")),
]


class PrivateHeaders:
    """Adds `HEADERS` to every response of the wrapped app (pages, redirects, files)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name for name, _ in HEADERS}
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message = {**message, "headers": kept + HEADERS}
            await send(message)
        await self.app(scope, receive, with_headers)


def mount(keys: SessionKeys | None = None) -> Mount:
    """The inbox under `PREFIX`; sessions signed with `keys` (default: from the
    environment, `$ASSISTANT_CONSOLE_SECRET`, else a key of this process)."""
    console = ConsolePages(keys or SessionKeys.from_environment())
    static = StaticFiles(directory=Path(__file__).with_name("static"))
    conversation = "/conversations/{phone}"
    router = Router(routes=[
        Route("/", console.home, methods=["GET"]),
        Route("/signin", console.signin_page, methods=["GET"]),
        Route("/signin", console.form(console.signin), methods=["POST"]),
        Route("/signout", console.form(console.signout), methods=["POST"]),
        Route("/language", console.form(console.language), methods=["POST"]),
        Route(conversation, console.conversation, methods=["GET"]),
        Route(f"{conversation}/takeover", console.form(console.on_conversation(pages.take_over)),
              methods=["POST"]),
        Route(f"{conversation}/release", console.form(console.on_conversation(pages.release)),
              methods=["POST"]),
        Route(f"{conversation}/messages", console.form(console.on_conversation(pages.write)),
              methods=["POST"]),
        Mount("/static", app=static),
    ])
    return Mount(PREFIX, app=PrivateHeaders(router))
