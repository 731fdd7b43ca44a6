"""Objects a command builds for the life of its process, kept out of garbage collection.

The modules a command loads and the in-process simulator's dataset (600 accounts and their
months of history) never become garbage, yet the cyclic collector walked them again at
every full collection: about a tenth of a cold `billing-assistant ask`. Building them with
the collector paused and then freezing them (`gc.freeze`: moved out of every generation)
does the same work without those walks. Only cyclic garbage is affected: reference counting
still frees a frozen object nobody holds, so a dataset replaced later is still freed.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def long_lived_objects() -> Iterator[None]:
    """No collection while the block runs, then everything alive is frozen; the collector is
    left enabled or disabled as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
