"""Argument types and the parser of `billing-assistant`: a bad value is one line, exit 2.

argparse alone prints the whole usage before its error, accepts `--port 99999` (uvicorn then
fails with a traceback) and `--margin -5` (the retriever raises deep inside a search). Here
every number is checked where it is read, with its range in the message, and the parser's
error is the one line `billing-assistant <command>: error: argument --port: …` and exit
status 2. Bias: refuse a value outside the range a person would mean, rather than clamp it.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import NoReturn

USAGE_ERROR = 2


class OneLineParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def whole(minimum: int, maximum: int) -> Callable[[str], int]:
    """A whole number in [minimum, maximum]."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            value = None
        if value is None or not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {minimum} to {maximum}, got {text!r}"
            )
        return value

    parse.__name__ = "whole number"
    return parse


def number(minimum: float, maximum: float) -> Callable[[str], float]:
    """A finite decimal number in [minimum, maximum] (no NaN, no infinity)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(
                f"must be a number from {minimum:g} to {maximum:g}, got {text!r}"
            )
        return value

    parse.__name__ = "number"
    return parse


port = whole(1, 65535)
"""A TCP port to listen on."""
