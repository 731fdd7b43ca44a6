"""The simulator's browser-test helpers: an app served on loopback, a page that may reach
loopback only. The browser itself (and the skip where it is missing) is `tests/browser.py`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from starlette.applications import Starlette

from billing_toolkit.simulator.server import serve_in_thread
from tests.browser import ARGS, CHROMIUM, WAIT_MS, sync_api


@contextmanager
def served(app: Starlette) -> Iterator[str]:
    """The app on 127.0.0.1:<free port> for the block."""
    running = serve_in_thread(app)
    try:
        yield running.url
    finally:
        running.stop()


@contextmanager
def page(
    viewport: dict[str, int] | None = None, locale: str = "en-US"
) -> Iterator[tuple[Any, list[str]]]:
    """A fresh page in headless chromium that may reach loopback only, and the list of
    every other URL it tried (and was refused): what a CDN reference would show up in."""
    assert threading.current_thread() is threading.main_thread()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            context = browser.new_context(
                viewport=viewport or {"width": 1280, "height": 900}, locale=locale
            )
            refused: list[str] = []

            def only_loopback(route: Any) -> None:
                if route.request.url.startswith(("http://127.0.0.1", "data:")):
                    route.continue_()
                else:
                    refused.append(route.request.url)
                    route.abort()

            context.route("**/*", only_loopback)
            opened = context.new_page()
            opened.set_default_timeout(WAIT_MS)
            yield opened, refused
        finally:
            browser.close()
