"""Finding, reading and writing calendar dates in Spanish and English text.

The grounding verifier must accept "10 de diciembre de 2026" when the billing API said
`2026-12-10`, and must reject "11 de diciembre de 2026". So a date is read to its value
wherever it can be read *unambiguously*, and a date that could be read two ways has no value
at all (`DateMention.value is None`): it can then only be supported by appearing literally in
the evidence. Bias: when a reading is in doubt, there is no reading.

Forms understood:
- ISO `2026-12-10` (also the date part of `2026-12-10T10:00:00Z`);
- numeric `10/12/2026`, `10-12-2026`, `10.12.2026` — read day-first (Venezuelan convention)
  or month-first, and given a value only when exactly one of the two readings is a real date,
  or when the caller names the reader's locale (`day_first`: the reply's language decides
  how its own numeric dates read);
- Spanish `10 de diciembre de 2026`, `10 de diciembre` (no year);
- English `December 10, 2026`, `Dec 10`, `10 December 2026`, `10th of December`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.months import (
    ENGLISH_ABBREVIATIONS,
    ENGLISH_FULL,
    ENGLISH_NAMES,
    SPANISH_FULL,
    SPANISH_NAMES,
)

_MONTHS_ES = dict(SPANISH_FULL)
_MONTHS_EN = dict(ENGLISH_FULL) | dict(ENGLISH_ABBREVIATIONS)
_ES_NAMES = SPANISH_NAMES
_EN_NAMES = ENGLISH_NAMES


class DateStyle(StrEnum):
    """How a date was written; used to write a changed date back in the same style."""

    ISO = "iso"
    NUMERIC = "numeric"
    SPANISH = "spanish"
    ENGLISH = "english"


@dataclass(frozen=True, slots=True)
class DateMention:
    """One date found in a text.

    `value` is the full date when it can be read unambiguously, else None. `month_day` is
    set for a date written without a year ("10 de diciembre"), which matches any year.
    """

    start: int
    end: int
    literal: str
    style: DateStyle
    value: date | None
    month_day: tuple[int, int] | None = None


def _alternation(names: dict[str, int]) -> str:
    return "|".join(sorted(names, key=len, reverse=True))


_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_NUMERIC = re.compile(r"(?<![\d/.-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4})(?!\d)")
_YEAR = r"(?:,?\s+(?:(?:de|del)\s+)?(\d{4}))?(?!\d)"
_SPANISH = re.compile(
    rf"(?<!\d)(\d{{1,2}})\s+de\s+({_alternation(_MONTHS_ES)})\b{_YEAR}", re.IGNORECASE
)
_ENGLISH_MONTH_FIRST = re.compile(
    rf"\b({_alternation(_MONTHS_EN)})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?!\d)\b{_YEAR}",
    re.IGNORECASE,
)
_ENGLISH_DAY_FIRST = re.compile(
    rf"(?<!\d)(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_alternation(_MONTHS_EN)})\b\.?{_YEAR}",
    re.IGNORECASE,
)


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _named(
    start: int, end: int, literal: str, style: DateStyle, year: str | None, month: int, day: int
) -> DateMention:
    if year is not None:
        return DateMention(start, end, literal, style, _safe_date(int(year), month, day))
    real_day = _safe_date(2024, month, day) is not None  # a leap year: 29 Feb is a real day
    return DateMention(start, end, literal, style, None, (month, day) if real_day else None)


def _candidates(text: str, day_first: bool | None = None) -> list[DateMention]:
    found: list[DateMention] = []
    for m in _ISO.finditer(text):
        value = _safe_date(int(m[1]), int(m[2]), int(m[3]))
        found.append(DateMention(m.start(), m.end(), m[0], DateStyle.ISO, value))
    for m in _NUMERIC.finditer(text):
        first, second, year = int(m[1]), int(m[3]), int(m[4])
        local, other = _safe_date(year, second, first), _safe_date(year, first, second)
        if day_first is False:
            local, other = other, local
        readings = {d for d in (local, other) if d is not None}
        value = readings.pop() if len(readings) == 1 else local if day_first is not None else None
        found.append(DateMention(m.start(), m.end(), m[0], DateStyle.NUMERIC, value))
    spanish = (
        (m, DateStyle.SPANISH, _MONTHS_ES[m[2].lower()], int(m[1])) for m in _SPANISH.finditer(text)
    )
    month_first = (
        (m, DateStyle.ENGLISH, _MONTHS_EN[m[1].lower()], int(m[2]))
        for m in _ENGLISH_MONTH_FIRST.finditer(text)
    )
    english_day_first = (
        (m, DateStyle.ENGLISH, _MONTHS_EN[m[2].lower()], int(m[1]))
        for m in _ENGLISH_DAY_FIRST.finditer(text)
    )
    for generator in (spanish, month_first, english_day_first):
        for m, style, month, day in generator:
            found.append(_named(m.start(), m.end(), m[0], style, m[3], month, day))
    return found


def find_dates(text: str, day_first: bool | None = None) -> list[DateMention]:
    """Every date mention in `text`, in order, without overlaps (the longest wins a tie).

    `day_first` is the reader's locale for a numeric date both readings allow: True (Spanish,
    `05/11/2026` is 5 November), False (English, 11 May); None gives such a date no value."""
    chosen: list[DateMention] = []
    for mention in sorted(_candidates(text, day_first), key=lambda d: (d.start, d.start - d.end)):
        if not chosen or mention.start >= chosen[-1].end:
            chosen.append(mention)
    return chosen


def format_date(value: date, language: Language) -> str:
    """Write a date for a subscriber: "10 de diciembre de 2026" / "December 10, 2026".

    Month names, never a numeric `10/12/2026`, because a numeric date is read differently
    by a Spanish and an English reader.
    """
    if language is Language.ENGLISH:
        return f"{_EN_NAMES[value.month - 1]} {value.day}, {value.year:04d}"
    return f"{value.day} de {_ES_NAMES[value.month - 1]} de {value.year:04d}"


def write_like(value: date, mention: DateMention) -> str:
    """Write `value` in the style of an existing mention (used to inject a changed date)."""
    if mention.style is DateStyle.ISO:
        return value.isoformat()
    if mention.style is DateStyle.NUMERIC:
        return f"{value.day:02d}/{value.month:02d}/{value.year:04d}"
    language = Language.ENGLISH if mention.style is DateStyle.ENGLISH else Language.SPANISH
    return format_date(value, language)
