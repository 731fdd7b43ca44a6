"""The command-line convention every console script of the toolkit follows.

A bad argument is one line on stderr — `billing-sim: error: argument --port: …` — and exit
status 2, never a usage dump spread over several lines a CI log interleaves, and never a
traceback. The scripts live in packages that may not import each other, so the convention
(exit statuses, argument types, how a settings model's refusal reads) lives in the one package
they all see. The argument types are biased to refuse: NaN, infinities and `1e999` are not
numbers a timeout or a rate can mean, so they fail here rather than deep inside a server.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import NoReturn, TypeVar

from pydantic import ValidationError

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2


class OneLineParser(argparse.ArgumentParser):
    """An `ArgumentParser` whose errors are one line (and whose sub-parsers are too)."""

    def error(self, message: str) -> NoReturn:
        """One line naming the program and what is wrong, then exit 2."""
        fail(f"{self.prog}: error: {message} (see --help)")


def fail(message: str) -> NoReturn:
    """Print `message` as one line on stderr and exit with the usage status."""
    print(" ".join(message.split()), file=sys.stderr)
    raise SystemExit(EXIT_USAGE)


MAX_PORT = 65535


def port(text: str) -> int:
    """A TCP port to listen on: 0 (pick a free one) to 65535."""
    return bounded_int(text, 0, MAX_PORT)


def fixed_port(text: str) -> int:
    """A TCP port a service is reached at: 1 to 65535. Not 0: a service that someone else
    dials at a configured address (a webhook, a fake upstream) and that never says which port
    it picked would serve where nobody can find it."""
    return bounded_int(text, 1, MAX_PORT)


def bounded_int(text: str, low: int, high: int) -> int:
    """An integer within [low, high], or an argparse error naming the bounds."""
    value = _whole_number(text)
    return _kept(value, low <= value <= high, f"between {low} and {high}")


def positive_int(text: str) -> int:
    """A whole number of at least 1 (a count, a size, a number of workers)."""
    value = _whole_number(text)
    return _kept(value, value >= 1, "a whole number >= 1")


def non_negative_int(text: str) -> int:
    """A whole number of at least 0 (a number of retries, where none is a valid choice)."""
    value = _whole_number(text)
    return _kept(value, value >= 0, "a whole number >= 0")


def bounded_float(text: str, low: float, high: float) -> float:
    """A finite number within [low, high], or an argparse error naming the bounds."""
    value = _finite_number(text)
    return _kept(value, low <= value <= high, f"between {low:g} and {high:g}")


def positive_float(text: str) -> float:
    """A finite number above zero (seconds, a rate): 0 would mean never or always."""
    value = _finite_number(text)
    return _kept(value, value > 0, "a number > 0")


def one_line(error: ValidationError) -> str:
    """A settings model's refusal as one line: each bad field, its problem and the value given.

    Pydantic's own `str()` spans several lines and ends in a documentation URL; a CLI (through
    `fail`) and a constructor (as `ValueError`) both want `field: problem (got value)` (no
    value for a missing field: the whole input would be noise), several problems joined by
    `; ` so none is hidden.
    """
    problems: list[str] = []
    for detail in error.errors(include_url=False):
        field = ".".join(str(part) for part in detail["loc"]) or error.title
        message = detail["msg"].removeprefix("Value error, ")
        given = "" if detail["type"] == "missing" else f" (got {detail['input']!r})"
        problems.append(f"{field}: {message}{given}")
    return " ".join("; ".join(problems).split())


_Number = TypeVar("_Number", int, float)


def _kept(value: _Number, ok: bool, rule: str) -> _Number:
    """`value` when `ok`, else the argparse error `<value> is not <rule>`."""
    if not ok:
        shown = f"{value:g}" if isinstance(value, float) else str(value)
        raise argparse.ArgumentTypeError(f"{shown} is not {rule}")
    return value


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _finite_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value
