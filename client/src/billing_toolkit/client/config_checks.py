"""Checks for settings objects: a bad value fails at construction, naming the field.

A breaker built from a typo (`threshold=50` meaning 50 %, a `"0.5"` read from an env file,
a NaN) would either never open or open on every call, and nobody would find out until the
API had an outage. So the bias is to reject: anything that is not plainly a valid value
raises `ValueError` with the field's name, the rule and the value given. `bool` is refused
where a number is expected, although Python counts it as an `int`.
"""

from __future__ import annotations

import math
from typing import TypeGuard


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def check_count(field: str, value: object) -> None:
    """A whole number of at least 1 (a threshold of calls, a number of buckets)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{field} must be a whole number >= 1, got {value!r}")


def check_seconds(field: str, value: object) -> None:
    """A finite duration above zero."""
    if not _is_number(value) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{field} must be a finite number of seconds > 0, got {value!r}")


def check_fraction(field: str, value: object) -> None:
    """A share in (0, 1]: 0 would open on any failure, more than 1 never."""
    if not _is_number(value) or not 0 < value <= 1:
        raise ValueError(f"{field} must be a fraction in (0, 1], got {value!r}")
