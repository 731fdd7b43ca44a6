"""The agents' inbox: the handoff API as pages, for people (`/console` of `billing-assistant serve`).

    app.routes.extend(console.mount())        # what create_channel_app does

Server-rendered (Starlette + Jinja2), with its CSS and a small script shipped in the
package — no build step, no CDN. Sign-in exchanges the tenant's agent token for a signed,
HttpOnly, SameSite=Strict session cookie (`session.py`); every form carries a CSRF token.
Every answer says `Cache-Control: no-store` (the pages show subscribers' phones and
messages), `Referrer-Policy: no-referrer` (their URLs hold phones) and a Content Security
Policy that allows only this console's own files (`billing_toolkit.webconsole`, shared with
the QA console, as are the session machinery and the polling script).
"""

from __future__ import annotations

from pathlib import Path

from starlette.routing import BaseRoute, Mount, Route, Router

from billing_toolkit.assistant.channel.console import pages
from billing_toolkit.assistant.channel.console.pages import PREFIX, ConsolePages
from billing_toolkit.assistant.channel.console.session import SessionKeys
from billing_toolkit.webconsole.headers import PrivateHeaders, bare_prefix_redirect
from billing_toolkit.webconsole.static import static_files

__all__ = ["PREFIX", "mount"]


def mount(keys: SessionKeys | None = None) -> list[BaseRoute]:
    """The inbox under `PREFIX`; sessions signed with `keys` (default: from the
    environment, `$ASSISTANT_CONSOLE_SECRET`, else a key of this process)."""
    console = ConsolePages(keys or SessionKeys.from_environment())
    static = static_files(Path(__file__).with_name("static"))
    conversation = "/conversations/{phone}"
    router = Router(
        routes=[
            Route("/", console.home, methods=["GET"]),
            Route("/signin", console.signin_page, methods=["GET"]),
            Route("/signin", console.form(console.signin), methods=["POST"]),
            Route("/signout", console.form(console.signout), methods=["POST"]),
            Route("/language", console.form(console.language), methods=["POST"]),
            Route(conversation, console.conversation, methods=["GET"]),
            Route(
                f"{conversation}/takeover",
                console.form(console.on_conversation(pages.take_over)),
                methods=["POST"],
            ),
            Route(
                f"{conversation}/release",
                console.form(console.on_conversation(pages.release)),
                methods=["POST"],
            ),
            Route(
                f"{conversation}/messages",
                console.form(console.on_conversation(pages.write)),
                methods=["POST"],
            ),
            Mount("/static", app=static),
        ]
    )
    return [bare_prefix_redirect(PREFIX), Mount(PREFIX, app=PrivateHeaders(router))]
