"""Small readings for the "did you mean" exchange: is a reply a yes, is a number a neighbour.

A suggestion is only ever answered after the subscriber says yes, and "yes" is read
narrowly — a short message of assent words and nothing else; "sí, pero la otra" is not a yes.
A suggestion is drawn only from the subscriber's own invoices and must be the variant's
reading or differ from it in a single character (one look-alike, one extra or dropped
character); anything further is not suggested.
"""

from __future__ import annotations

import re

from billing_toolkit.assistant.text.folding import fold

_YES = re.compile(
    r"\W*(?:(?:si|yes|yep|dale|ok|okay|claro|correcto|exacto|esa|esa misma|"
    r"por favor|please)\W*)+"
)


def is_affirmative(message: str) -> bool:
    return bool(_YES.fullmatch(fold(message)))


def near(reading: str, candidate: str) -> bool:
    """Equal, or one substitution, insertion or deletion apart."""
    if reading == candidate:
        return True
    if abs(len(reading) - len(candidate)) > 1:
        return False
    if len(reading) == len(candidate):
        return sum(a != b for a, b in zip(reading, candidate, strict=True)) == 1
    short, long = sorted((reading, candidate), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
