"""Folding text for rule matching: lowercase, accents removed, whitespace collapsed.

Subscribers write "cuánto", "cuanto" and "CUANTO" for the same word, so every keyword rule
(person requests, intents, forbidden phrases, language) matches on the folded form, and the
knowledge-base index folds its words the same way, so that both spellings meet there too.
Folding is only ever used for *matching*; identifiers and figures are always taken from the original
text, never from the folded copy (folding would not change digits, but the rule keeps the two
concerns apart).
"""

from __future__ import annotations

import functools
import re
import unicodedata

_SPACES = re.compile(r"\s+")


class _BaseLetters(dict[int, int]):
    """`str.translate` table of each character to its base letter, filled on first sight."""

    def __missing__(self, code: int) -> int:
        decomposed = unicodedata.normalize("NFD", chr(code))
        marks = decomposed[1:]
        plain = len(decomposed) > 1 and all(unicodedata.combining(mark) for mark in marks)
        self[code] = ord(decomposed[0]) if plain else code
        return self[code]


_BASE_LETTERS = _BaseLetters()


@functools.lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """Lowercase, strip combining accents (á→a, ñ→n) and collapse runs of whitespace
    (remembered per text, like the readers of `remembered.py`: rules fold the same message
    and reply dozens of times a turn)."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _SPACES.sub(" ", stripped.lower()).strip()


def strip_accents(text: str) -> str:
    """`text` with every accented letter written as its base letter (á→a, Ñ→N, ü→u, İ→I), one
    character for one — so a match in the result is at the same offsets in `text`, and the
    literal is taken from `text`. Case is kept (patterns match it with IGNORECASE), and so is
    everything that is not a letter with marks (º, °, a lone combining mark).

    Why: a rule written as `veintiséis|veintiseis` for every word (`[eé]` classes under
    IGNORECASE) costs seconds to compile per process; the same rule over stripped text is a
    plain alternation."""
    return text if text.isascii() else text.translate(_BASE_LETTERS)
