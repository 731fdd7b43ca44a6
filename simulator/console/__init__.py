"""The QA console: the admin API as one page for people (`/_sim/console` of `billing-sim serve`).

    Mount(PREFIX, ...) = console_mount(runtime)      # what create_app adds

Server-rendered (Starlette + Jinja2), its CSS and a small script shipped in the package —
no build step, no CDN. Sign-in exchanges the admin token for a signed, HttpOnly,
SameSite=Strict session cookie (`session.py`); every form carries a CSRF token. Every
answer says `Cache-Control: no-store` and a Content Security Policy that allows only this
console's own files.
"""

from __future__ import annotations

from pathlib import Path

from starlette.routing import Mount, Route, Router
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from billing_toolkit.simulator.console.pages import PREFIX, ConsolePages
from billing_toolkit.simulator.console.session import SessionKeys
from billing_toolkit.simulator.runtime import Runtime

__all__ = ["PREFIX", "console_mount"]

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

        await self.app(scope, receive, with_headers)


def console_mount(runtime: Runtime, keys: SessionKeys | None = None) -> Mount:
    """The console under `PREFIX`; sessions signed with `keys` (default: a random key of
    this process for the configured admin token — a restart signs everybody out)."""
    pages = ConsolePages(runtime, keys or SessionKeys(runtime.config.admin_token))
    post = pages.post
    router = Router(
        routes=[
            Route("/", pages.home, methods=["GET"]),
            Route("/sign-in", post(pages.sign_in, signed_in=False), methods=["POST"]),
            Route("/sign-out", post(pages.sign_out), methods=["POST"]),
            Route("/language", post(pages.language, signed_in=False), methods=["POST"]),
            Route("/faults", post(pages.add_rule), methods=["POST"]),
            Route("/faults/remove", post(pages.remove_rule), methods=["POST"]),
            Route("/faults/clear", post(pages.clear_rules), methods=["POST"]),
            Route("/scenarios", post(pages.load_scenario), methods=["POST"]),
            Route("/scenarios/unload", post(pages.unload_scenario), methods=["POST"]),
            Route("/clock", post(pages.advance_clock), methods=["POST"]),
            Route("/reset", post(pages.reset), methods=["POST"]),
            Route("/requests/clear", post(pages.clear_requests), methods=["POST"]),
            Mount("/static", app=StaticFiles(directory=Path(__file__).with_name("static"))),
        ]
    )
    return Mount(PREFIX, app=PrivateHeaders(router))
