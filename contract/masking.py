"""The one masking policy for personal identifiers, wherever they are logged or reported.

Account numbers, phone numbers and national IDs (cédulas, RIFs) keep their first and last
two digits and lose the rest: `1000004821` → `10******21`, `+584121234567` → `+58********67`.
The simulator's request log, the assistant's traces and the conformance report all mask
this way, so the same subscriber can be followed from one to the other without being named.
Bias: mask anything that looks like one of them, even a number that is not (a log line loses
a few digits of context; a leaked cédula cannot be unleaked).
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
_VISIBLE = 2
"""Digits kept at each end."""


def hide(identifier: str) -> str:
    """One identifier masked: its first and last two digits kept, every other digit a `*`,
    everything that is not a digit kept (so `V-12345678` stays recognisable as a cédula).
    An identifier of four digits or fewer is hidden whole: its ends would be all of it."""
    digits = [i for i, ch in enumerate(identifier) if ch.isdigit()]
    if len(digits) <= 2 * _VISIBLE:
        return "".join("*" if ch.isdigit() else ch for ch in identifier)
    keep = set(digits[:_VISIBLE] + digits[-_VISIBLE:])
    return "".join(
        ch if (i in keep or not ch.isdigit()) else "*" for i, ch in enumerate(identifier)
    )


def _hide_match(match: re.Match[str]) -> str:
    text = match.group(0)
    if text.isdigit():  # an account number: the common case in paths
        return text[:_VISIBLE] + "*" * (len(text) - 2 * _VISIBLE) + text[-_VISIBLE:]
    return hide(text)


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
    return _ANY.sub(_hide_match, text) if _DIGIT.search(text) else text
