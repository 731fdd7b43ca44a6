"""One process per SQLite store: a second `serve` on the same file is refused at start.

SQLite would let two processes write the file, but the service's leases assume whoever
starts on SQLite owns the store (it drops the leases it finds, left by a dead predecessor),
and SQLite's single writer would make the two queue on each other anyway. So the first
process takes an exclusive `flock` on `<file>.lock` for its lifetime; the kernel drops it
when the process dies (kill -9 included), so a crash never leaves a stale lock behind.
PostgreSQL and memory stores need no such lock. Bias: refuse — a refused start is one line
to read, two writers on one file are a silent mess.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_SQLITE_PREFIX = "sqlite:///"
_MEMORY = ":memory:"


class StoreInUse(ValueError):
    """Another process serves this SQLite store."""


@contextmanager
def sole_process(dsn: str) -> Iterator[None]:
    """Hold the SQLite store named by `dsn` for this process; raises `StoreInUse` when
    another process holds it. A no-op for other stores."""
    path = dsn.removeprefix(_SQLITE_PREFIX) if dsn.startswith(_SQLITE_PREFIX) else None
    if path is None or path == _MEMORY:
        yield
        return
    try:
        handle = open(Path(f"{path}.lock"), "a+b")  # noqa: SIM115 — closed below
    except OSError as error:
        raise ValueError(f"cannot open the conversation store {path}: {error}") from error
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StoreInUse(
                f"the SQLite store {path} is already served by another process (SQLite serves "
                "one process); to run several replicas, use PostgreSQL: "
                "--store postgresql://USER@HOST:5432/DB"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
