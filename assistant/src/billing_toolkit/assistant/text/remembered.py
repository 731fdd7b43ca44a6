"""Text readers that read each text once: their answers kept per text, bounded.

A turn's verifier reads the same evidence, reply and message texts through every check
(figures, dates, identifiers, their binding), and the same evidence comes back turn after turn:
an evaluation run found each text read 4 to 25 times. The readers are pure functions of their
arguments, so what one found is kept (the last `TEXTS` arguments, least recently used going
first) and handed out as a fresh list each time, so no caller can change another's answer.
Bias: memory is bounded — a text not kept is simply read again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

TEXTS = 8192
"""Arguments kept per reader: every distinct text of an evaluation run fits (about 4,000)."""


def remembered(reader: Callable[P, list[T]]) -> Callable[P, list[T]]:
    """`reader`, its answer for the same (hashable) arguments kept (see the module)."""
    kept = functools.lru_cache(maxsize=TEXTS)(
        lambda *args, **kwargs: tuple(reader(*args, **kwargs))
    )

    @functools.wraps(reader)
    def read(*args: P.args, **kwargs: P.kwargs) -> list[T]:
        return list(kept(*args, **kwargs))

    return read
