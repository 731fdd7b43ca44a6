"""The command-line convention every console script of the toolkit follows.

A bad argument is one line on stderr — `billing-sim: error: argument --port: …` — and exit
status 2, never a usage dump spread over several lines a CI log interleaves, and never a
traceback. The three scripts live in packages that may not import each other, so the
convention lives in the one package they all see.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

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


def port(text: str) -> int:
    """A TCP port to listen on: 0 (pick a free one) to 65535."""
    return bounded_int(text, 0, 65535)


def bounded_int(text: str, low: int, high: int) -> int:
    """An integer within [low, high], or an argparse error naming the bounds."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{value} is not between {low} and {high}")
    return value
