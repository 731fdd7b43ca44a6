"""The one cache directory the assistant keeps derived files in, and building one of them once.

Training and knowledge-base vectors (`vector_cache.py`), fitted intent models
(`understanding/artifacts.py`), the exported MiniLM graph (`embedders/minilm_onnx.py`) and
the digests of big files (`file_sha256`) are all pure functions of what their names hash, so
they share one directory and one rule: the cache only ever saves time. It lives here, below
every layer that writes to it.

Where: `BILLING_TOOLKIT_CACHE`, else `$XDG_CACHE_HOME/billing-toolkit`, else
`~/.cache/billing-toolkit`.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

ENV_CACHE = "BILLING_TOOLKIT_CACHE"
SETTLED_SECONDS = 2.0
"""How long a file must have gone unmodified before its digest is remembered: a file
timestamp ticks in milliseconds, so a file rewritten in the same tick as it was hashed would
keep its stat; a file older than this cannot have been (git's "racily clean" rule)."""


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


def file_sha256(path: Path, directory: Path | None = None) -> bytes:
    """The SHA-256 of `path`'s bytes, remembered in the cache directory under the file's
    identity (path, inode, size, modification and change times) once it has settled.

    MiniLM's weights are 90 MB that every cold `ask` hashed to name its ONNX graph (a tenth
    of a second); a rewritten file has another stat, so its digest is computed again."""
    folder = cache_directory() if directory is None else directory
    stat = path.stat()
    identity = (path.resolve(), stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
    memo = folder / f"sha256-{hashlib.sha256(repr(identity).encode()).hexdigest()}.txt"
    with contextlib.suppress(OSError, ValueError):
        remembered = bytes.fromhex(memo.read_text("ascii"))
        if len(remembered) == hashlib.sha256().digest_size:
            return remembered
    with open(path, "rb") as handle:
        digest = hashlib.file_digest(handle, "sha256").digest()
    if time.time() - max(stat.st_mtime, stat.st_ctime) >= SETTLED_SECONDS:
        with contextlib.suppress(OSError):
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=folder, suffix=".txt", delete=False) as out:
                out.write(digest.hex())
            os.replace(out.name, memo)
    return digest
