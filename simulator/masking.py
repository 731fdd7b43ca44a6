"""Masking of personal identifiers in anything that is logged.

Account numbers, phone numbers and national IDs (cédulas, RIFs) keep their first and last
two digits and lose the rest: `1000004821` → `10******21`. Bias: mask anything that looks
like one of them, even a number that is not (a log line loses a few digits of context;
a leaked cédula cannot be unleaked).
"""

from __future__ import annotations

import re

_PATTERNS = (
    re.compile(r"\+\d{8,15}"),  # E.164 phones
    re.compile(r"(?<![\w.])0\d{3}-?\d{7}(?!\d)"),  # local phones 0412-1234567
    re.compile(
        r"(?<![A-Za-z0-9])[VEJGPvejgp]-?\d{1,3}(?:\.?\d{3}){1,2}(?:-\d)?(?!\d)"
    ),  # cédula / RIF
    re.compile(r"(?<![\d-])[1-9]\d{9}(?!\d)"),  # account numbers
    re.compile(r"%2B\d{8,15}"),  # URL-encoded E.164
)


def _hide(match: re.Match[str]) -> str:
    text = match.group(0)
    if text.isdigit():  # an account number: the common case in paths
        return text[:2] + "*" * (len(text) - 4) + text[-2:]
    digits = [i for i, ch in enumerate(text) if ch.isdigit()]
    if len(digits) <= 4:
        return text
    keep = set(digits[:2] + digits[-2:])
    return "".join(ch if (i in keep or not ch.isdigit()) else "*" for i, ch in enumerate(text))


_ANY = re.compile(
    "(?=[+%0-9VEJGPvejgp])(?:"  # the characters a match can start with: a cheap first test
    + "|".join(f"(?:{pattern.pattern})" for pattern in _PATTERNS)
    + ")"
)
"""All patterns in one pass (a log line is masked on every request); the lookahead rejects
most positions of a path before any pattern's look-behind is tried."""


_DIGIT = re.compile(r"\d")


def mask(text: str) -> str:
    """`text` with every identifier-looking number masked (every pattern needs a digit, so
    text without one — most log messages — is returned after one quick scan)."""
    return _ANY.sub(_hide, text) if _DIGIT.search(text) else text
