"""The QA console: the admin API as one page for people (`/_sim/console` of `billing-sim serve`).

    routes = console_mount(runtime, throttle)      # what create_app adds

Server-rendered (Starlette + Jinja2), its CSS and a small script shipped in the package —
no build step, no CDN. Sign-in exchanges the admin token for a signed, HttpOnly,
SameSite=Strict session cookie (`session.py`); every form carries a CSRF token. Every
answer says `Cache-Control: no-store` and a Content Security Policy that allows only this
console's own files (`billing_toolkit.webconsole`, shared with the agents' inbox, as
are the session machinery and the polling script).
"""

from __future__ import annotations

from pathlib import Path

from starlette.routing import BaseRoute, Mount, Route, Router

from billing_toolkit.simulator.console.pages import PREFIX, ConsolePages
from billing_toolkit.simulator.console.session import SessionKeys
from billing_toolkit.simulator.runtime import Runtime
from billing_toolkit.webconsole.headers import PrivateHeaders, bare_prefix_redirect
from billing_toolkit.webconsole.live_sessions import MemorySessions
from billing_toolkit.webconsole.static import static_files
from billing_toolkit.webconsole.throttle import SignInThrottle

__all__ = ["PREFIX", "console_mount"]


def console_mount(
    runtime: Runtime, throttle: SignInThrottle, keys: SessionKeys | None = None
) -> list[BaseRoute]:
    """The console under `PREFIX`; sessions signed with `keys` (default: a random key of
    this process for the configured admin token — a restart signs everybody out), sign-in
    slowed by `throttle` (the admin bearer's)."""
    keys = keys or SessionKeys(runtime.config.admin_token)
    pages = ConsolePages(runtime, keys, throttle, MemorySessions())
    post = pages.post
    router = Router(
        routes=[
            Route("/", pages.home, methods=["GET"]),
            Route("/reports", pages.reports, methods=["GET"]),
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
            Mount("/static", app=static_files(Path(__file__).with_name("static"))),
        ]
    )
    return [bare_prefix_redirect(PREFIX), Mount(PREFIX, app=PrivateHeaders(router))]
