"""Folding text for rule matching: lowercase, accents removed, whitespace collapsed.

Subscribers write "cuánto", "cuanto" and "CUANTO" for the same word, so every keyword rule
(person requests, intents, forbidden phrases, language) matches on the folded form, and the
knowledge-base index folds its words the same way, so that both spellings meet there too.
Folding is only ever used for *matching*; identifiers and figures are always taken from the original
text, never from the folded copy (folding would not change digits, but the rule keeps the two
concerns apart).
"""

from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile(r"\s+")


def fold(text: str) -> str:
    """Lowercase, strip combining accents (á→a, ñ→n) and collapse runs of whitespace."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _SPACES.sub(" ", stripped.lower()).strip()
