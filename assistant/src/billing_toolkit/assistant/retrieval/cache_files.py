"""The one cache directory the assistant keeps derived files in, and building one of them once.

Training and knowledge-base vectors (`vector_cache.py`), fitted intent models
(`understanding/artifacts.py`) and the exported MiniLM graph (`embedders/minilm_onnx.py`)
are all pure functions of what their names hash, so they share one directory and one rule:
the cache only ever saves time. It lives here, below every layer that writes to it.

Where: `BILLING_TOOLKIT_CACHE`, else `$XDG_CACHE_HOME/billing-toolkit`, else
`~/.cache/billing-toolkit`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from pathlib import Path

ENV_CACHE = "BILLING_TOOLKIT_CACHE"


def cache_directory(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    if env.get(ENV_CACHE):
        return Path(env[ENV_CACHE])
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "billing-toolkit"


@contextlib.contextmanager
def build_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on `path`'s lock file while it is built, so that concurrent processes
    (pytest-xdist workers, replicas starting together) build it once and the others wait for
    the file; no lock where there cannot be one (an unwritable directory, a platform without
    `fcntl`): then two processes may both build, which costs time and nothing else, as long as
    the file is renamed into place atomically."""
    try:
        import fcntl

        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path.with_suffix(".lock"), "a+b")  # noqa: SIM115 (closed below)
    except (ImportError, OSError):
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        handle.close()  # closing releases the lock
