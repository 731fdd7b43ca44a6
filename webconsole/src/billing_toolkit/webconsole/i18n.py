"""Which language a console visitor gets, and a console's words in it.

Both consoles speak Spanish and English and choose alike: the sign-in page follows the
browser's `Accept-Language`, every page has a switch, and the session remembers the choice.
Each console keeps only its wording table (key → one text per language, in `LANGUAGES`
order) and gets its `texts` from `wording(table)`. Bias: Spanish, the language of the
operators and their customers, when nothing says otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

LANGUAGES = ("es", "en")
DEFAULT = "es"

Table = Mapping[str, tuple[str, str]]
"""A console's words: key → (es, en)."""
SHARED: Table = {
    "throttled": (
        "Demasiados intentos fallidos desde aquí. Espera unos minutos y vuelve a intentarlo.",
        "Too many failed sign-ins from here. Wait a few minutes and try again.",
    ),
}
"""Words every console has (the sign-in throttle's refusal, `throttle.py`)."""


def pick(accept_language: str) -> str:
    """The first of `LANGUAGES` the browser lists, in its order (weights aside)."""
    for part in accept_language.split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LANGUAGES:
            return tag
    return DEFAULT


def wording(table: Table) -> Callable[[str], dict[str, str]]:
    """`texts(language)` over `SHARED` and `table`: every key in that language (an unknown
    language gets the default's words, never a missing key in a template)."""
    merged = {**SHARED, **table}

    def texts(language: str) -> dict[str, str]:
        index = LANGUAGES.index(language) if language in LANGUAGES else 0
        return {key: pair[index] for key, pair in merged.items()}

    return texts
