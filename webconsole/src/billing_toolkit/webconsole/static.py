"""Serves a console's own static files, then the shared ones (`console.js`) of this package."""

from __future__ import annotations

from pathlib import Path

from starlette.staticfiles import StaticFiles


def static_files(own: Path) -> StaticFiles:
    """The console's folder `own` first (its CSS), then this package's `static/`."""
    return StaticFiles(directory=own, packages=[("billing_toolkit.webconsole", "static")])
