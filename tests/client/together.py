"""Threads that really do run at once: every caller is released by one barrier."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from billing_toolkit.client import CircuitBreaker, CircuitOpenError

T = TypeVar("T")


def at_once(callers: int, call: Callable[[], T]) -> list[T]:
    """`call` in `callers` threads that all wait at a barrier first (bounded: 5 s)."""
    start = threading.Barrier(callers)

    def run(_: int) -> T:
        start.wait(timeout=5)
        return call()

    with ThreadPoolExecutor(callers) as pool:
        return list(pool.map(run, range(callers)))


def admitted(breaker: CircuitBreaker) -> bool:
    """Did the breaker let this caller through (a ticket) or fail it fast?"""
    try:
        breaker.acquire()
    except CircuitOpenError:
        return False
    return True
