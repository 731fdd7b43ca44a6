"""Debian's chromium, driven by Playwright, for the simulator's browser tests.

Never `playwright install` (no browser download works here): the system executable that
`make install` puts in /usr/bin. A module that imports this skips, with the reason, only
where that browser or the playwright package is missing.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette

from billing_toolkit.simulator.server import serve_in_thread

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
WAIT_MS = 10_000
"""The longest any step may wait (the console polls every 1.5 s)."""

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')"
)
if not CHROMIUM.exists() or shutil.which(str(CHROMIUM)) is None:
    pytest.skip(
        f"{CHROMIUM} is missing: `make install` installs Debian's chromium",
        allow_module_level=True,
    )


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
