"""Debian's chromium, driven by Playwright: the one browser set-up every browser test uses.

Never `playwright install` (no browser download works here): the system executable that
`make install` puts in /usr/bin. A test module that imports this skips, with the reason, only
where that browser or the playwright package is missing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
WAIT_MS = 10_000
"""The longest any step may wait (the consoles poll every 1.5–2 s)."""
FIRST_PAINT_MS = 30_000
"""The longest a page's first render may take: Swagger UI parses the whole contract in the
page's one thread, and with both cores busy with the rest of the suite that took over 10 s."""

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')"
)
if not CHROMIUM.exists() or shutil.which(str(CHROMIUM)) is None:
    pytest.skip(
        f"{CHROMIUM} is missing: `make install` installs Debian's chromium",
        allow_module_level=True,
    )
