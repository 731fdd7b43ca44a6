"""The month vocabulary, in one place for every reader of months.

The date reader (what the verifier checks) and the period reader (which invoice a subscriber
means by "la de julio") must agree on what a month word is, so both read from these tables.
Full names and the usual abbreviations are exact; misspellings are listed one by one (the
ones subscribers actually type), never matched by edit distance — a fuzzy match would turn
"mar" or "may" in running text into a month. Bias: a word not in a table is not a month.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from billing_toolkit.assistant.text.folding import fold

SPANISH_NAMES: tuple[str, ...] = (
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
)
ENGLISH_NAMES: tuple[str, ...] = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def _numbered(names: tuple[str, ...]) -> dict[str, int]:
    return {name.lower(): number for number, name in enumerate(names, start=1)}


SPANISH_FULL: Mapping[str, int] = MappingProxyType(_numbered(SPANISH_NAMES) | {"setiembre": 9})
"""Spanish month names as written correctly ("setiembre" is an accepted spelling)."""

SPANISH_ABBREVIATIONS: Mapping[str, int] = MappingProxyType(
    {
        "ene": 1,
        "feb": 2,
        "mar": 3,
        "abr": 4,
        "may": 5,
        "jun": 6,
        "jul": 7,
        "ago": 8,
        "sep": 9,
        "sept": 9,
        "set": 9,
        "oct": 10,
        "nov": 11,
        "dic": 12,
    }
)
"""Spanish abbreviations; only month words when they stand in a date ("15 de dic. de 2026")."""

SPANISH_MISSPELLINGS: Mapping[str, int] = MappingProxyType(
    {
        "febero": 2,
        "febreo": 2,
        "febrro": 2,
        "agsoto": 8,
        "agoto": 8,
        "septimbre": 9,
        "setimbre": 9,
        "sectiembre": 9,
        "otubre": 10,
        "octubr": 10,
        "obtubre": 10,
        "novienbre": 11,
        "noviebre": 11,
        "nobiembre": 11,
        "dicienbre": 12,
        "diciebre": 12,
        "disiembre": 12,
        "dicembre": 12,
    }
)
"""Misspellings subscribers type, each read as the month it plainly means."""

ENGLISH_FULL: Mapping[str, int] = MappingProxyType(_numbered(ENGLISH_NAMES))

ENGLISH_ABBREVIATIONS: Mapping[str, int] = MappingProxyType(
    {
        "jan": 1,
        "feb": 2,
        "mar": 3,
        "apr": 4,
        "jun": 6,
        "jul": 7,
        "aug": 8,
        "sep": 9,
        "sept": 9,
        "oct": 10,
        "nov": 11,
        "dec": 12,
    }
)


WORD_LIKE_ABBREVIATIONS = frozenset({"mar", "may", "set", "ago"})
"""Abbreviations that are everyday words too ("el mar", "set", "two days ago")."""


def month_in_message(word: str) -> int | None:
    """The month a subscriber's word names, full, misspelled or abbreviated ("la de sept",
    "bill for oct"), in either language.

    The abbreviations that are also words (`WORD_LIKE_ABBREVIATIONS`) are left out on
    purpose: in a chat message "mar", "set" or "ago" are far more often words than months.
    """
    folded = fold(word)
    for table in (SPANISH_FULL, SPANISH_MISSPELLINGS, ENGLISH_FULL):
        if folded in table:
            return table[folded]
    if folded in WORD_LIKE_ABBREVIATIONS:
        return None
    return SPANISH_ABBREVIATIONS.get(folded) or ENGLISH_ABBREVIATIONS.get(folded)
