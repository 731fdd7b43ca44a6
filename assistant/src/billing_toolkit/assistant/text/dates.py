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
- Spanish `10 de diciembre de 2026`, `10 de diciembre` (no year), abbreviated months
  (`15 de dic. de 2026`, `set.`), ordinal days (`1.º`, `1º`, `1ro`, `primero`) and days
  and years in words (`quince de diciembre de dos mil veintiséis`);
- English `December 10, 2026`, `Dec 10`, `10 December 2026`, `10th of December`,
  `December fifteenth`, `the twenty-first of December`;
- compact `15-dic-2026`, `15/Dec/2026`, `15.dic.2026`;
- short numeric `15/12`, `12/15`, `15/12/26`, read like the full numeric form;
- Spanish month-first `dic. 15`, `diciembre 15 de 2026`, and `15 dic 2026`;
- "el día 15" or "el 15" in a `;`-clause, else a sentence, that names one month (and no
  other): the 15th of that month, with no year. Where none or two are named, it is no date.

A weekday written before a date (`lunes 14 de diciembre`, `mar. 15/12`, `Monday, December
14`) or just after it (`15 de diciembre (martes)`, `December 15, a Tuesday`) is kept on the
mention (`weekday`): a weekday that is not that date's makes the date wrong. A weekday with
no date is a relative date (`relative_dates.py`).
Relative dates ("mañana", "in 3 days") are found by `find_relative_dates`: they have no
value here, only their wording.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date
from enum import StrEnum

from billing_toolkit.assistant.text.folding import strip_accents
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.months import (
    ENGLISH_ABBREVIATIONS,
    ENGLISH_FULL,
    ENGLISH_NAMES,
    SPANISH_ABBREVIATIONS,
    SPANISH_FULL,
    SPANISH_NAMES,
)
from billing_toolkit.assistant.text.number_words import ORDINAL, RUN, YEAR, read_spelled_value
from billing_toolkit.assistant.text.remembered import remembered

_MONTHS_ES = dict(SPANISH_FULL) | dict(SPANISH_ABBREVIATIONS)
_MONTHS_EN = dict(ENGLISH_FULL) | dict(ENGLISH_ABBREVIATIONS)
_MONTHS_ANY = _MONTHS_ES | _MONTHS_EN
_FULL_MONTHS = dict(SPANISH_FULL) | dict(ENGLISH_FULL)
_WEEKDAYS = {
    "lunes": 0, "martes": 1, "miercoles": 2, "miércoles": 2, "jueves": 3, "viernes": 4,
    "sabado": 5, "sábado": 5, "domingo": 6,
    "lun": 0, "mar": 1, "mie": 2, "mié": 2, "jue": 3, "vie": 4, "sab": 5, "sáb": 5, "dom": 6,
    "monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
    "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5,
    "sat": 5, "sunday": 6, "sun": 6,
}  # fmt: skip
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
    weekday: int | None = None
    """The weekday written before the date (Monday is 0), if any."""


def _alternation(names: dict[str, int]) -> str:
    return "|".join(sorted(names, key=len, reverse=True))


_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_NUMERIC = re.compile(r"(?<![\d/.-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4})(?!\d)")
_YEAR = rf"(?:,?\s+(?:(?:de|del)\s+)?(\d{{4}}(?!\d)|{YEAR}))?"
_DAY_ES = rf"(\d{{1,2}}(?:\.?[º°]|ro|er)?(?!\d)|primero|{RUN})"
_DAY_EN = rf"(\d{{1,2}}(?:st|nd|rd|th)?(?!\d)|{ORDINAL})"
_SPANISH = re.compile(
    rf"(?<!\d)(?<![\w-]){_DAY_ES}\s+de\s+"
    rf"((?:{_alternation(dict(SPANISH_FULL))})\b|(?:{_alternation(dict(SPANISH_ABBREVIATIONS))})\b\.?)"
    rf"{_YEAR}",
    re.IGNORECASE,
)
_MONTH_FIRST = re.compile(
    rf"\b({_alternation(_MONTHS_ANY)})\.?\s+(?:the\s+)?{_DAY_EN}\b{_YEAR}"
    rf"(?!\s+de\s+[^\W\d])(?![/.-]\d)",
    re.IGNORECASE,
)
"""`December 15, 2026`, `Dec. 15th`, `dic. 15`, `diciembre 15 de 2026` — but not `mar. 15 de
dic.` or `mar 15/12`, where `mar.` is a weekday (martes) before a date."""
_DAY_FIRST = re.compile(
    rf"(?<!\d)(\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?|{ORDINAL}\s+of)\s+"
    rf"({_alternation(_MONTHS_ANY)})\b\.?{_YEAR}",
    re.IGNORECASE,
)
"""`15 December 2026`, `15th of Dec`, `15 dic. 2026`."""
_SHORT_NUMERIC = re.compile(
    r"(?<![\d/.,-])(\d{1,2})/(\d{1,2})(?:/(\d{2}))?(?![\d/]|[.,]\d)"
    r"(?![ \t]*(?:[kmg]?bps|%))",
    re.IGNORECASE,
)
"""`15/12` and `15/12/26`: a day and month (a two-digit year is this century's), read in the
reply's locale like a full numeric date; `100/20 Mbps` is a speed, not a date."""
_COMPACT = re.compile(
    rf"(?<![\d/.-])(\d{{1,2}})([-/. ])({_alternation(_MONTHS_ANY)})\.?\2(\d{{4}})(?!\d)",
    re.IGNORECASE,
)
_WEEKDAY = re.compile(
    rf"\b({_alternation(_WEEKDAYS)})\.?,?[ \t]+(?:(?:el|the)[ \t]+)?\Z", re.IGNORECASE
)
_WEEKDAY_REACH = 16
_TRAILING_WEEKDAY = re.compile(
    rf"[ \t]*(?:\([ \t]*|,[ \t]*)(?:(?:que[ \t]+es|un|el|a|which[ \t]+is[ \t]+a)[ \t]+)?"
    rf"({_alternation(_WEEKDAYS)})\b\.?\)?",
    re.IGNORECASE,
)
"""A weekday said after its date: `15 de diciembre (martes)`, `, un martes`, `(a Tuesday)`."""
_DAY_OF_MONTH = re.compile(
    rf"\b(?:el[ \t]+dia[ \t]+(\d{{1,2}}|primero|{RUN})"
    r"|el[ \t]+(\d{1,2})(?!\d|[.,:/]\d|[ \t]*(?:%|por\b|de\b|del\b|dias?\b|[a-z]*bps\b))"
    rf"|on[ \t]+the[ \t]+(\d{{1,2}}(?:st|nd|rd|th)|{ORDINAL}))\b",
    re.IGNORECASE,
)
_ANY_MONTH = re.compile(rf"\b(?:{_alternation(_MONTHS_ANY)})\b", re.IGNORECASE)
"""A quick look for any month word: a text with none has no named date to read, and the
named-date patterns (with days in words) are the costly ones."""
_FULL_MONTH = re.compile(rf"\b({_alternation(_FULL_MONTHS)})\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _number(written: str) -> int | None:
    """A day or year as written: digits (`15`, `15th`, `1.º`) or words (`quince`)."""
    digits = re.match(r"\d+", written)
    return int(digits[0]) if digits else read_spelled_value(re.sub(r"\s+of\Z", "", written))


def _named(
    text: str, m: re.Match[str], style: DateStyle, month: int, day_written: str
) -> DateMention:
    """A date with a month name, matched in `strip_accents(text)`; group 3 is its year, if
    written. A day or year in words we cannot read leaves it with no value at all, so only its
    literal (from `text`) can back it."""
    day = _number(day_written)
    year = None if m[3] is None else _number(m[3])
    start, end = m.start(), m.end()
    literal = text[start:end]
    if day is None or (m[3] is not None and year is None):
        return DateMention(start, end, literal, style, None)
    if year is not None:
        return DateMention(start, end, literal, style, _safe_date(year, month, day))
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
    found += _short_numeric(text, day_first)
    if _ANY_MONTH.search(text) is None:
        return found
    for m in _COMPACT.finditer(text):
        month = _MONTHS_ANY[m[3].lower()]
        style = DateStyle.SPANISH if m[3].lower() in _MONTHS_ES else DateStyle.ENGLISH
        value = _safe_date(int(m[4]), month, int(m[1]))
        found.append(DateMention(m.start(), m.end(), m[0], style, value))
    plain = strip_accents(text)  # where the patterns with days and years in words look
    for m in _SPANISH.finditer(plain):
        month = _MONTHS_ES[m[2].lower().rstrip(".")]
        found.append(_named(text, m, DateStyle.SPANISH, month, m[1]))
    for m in _MONTH_FIRST.finditer(plain):
        found.append(_named(text, m, _style(m[1]), _MONTHS_ANY[m[1].lower()], m[2]))
    for m in _DAY_FIRST.finditer(plain):
        found.append(_named(text, m, _style(m[2]), _MONTHS_ANY[m[2].lower()], m[1]))
    return found


def _style(month: str) -> DateStyle:
    return DateStyle.ENGLISH if month.lower() in _MONTHS_EN else DateStyle.SPANISH


def _readings(first: int, second: int, day_first: bool | None) -> tuple[int, int] | None:
    """The (month, day) of a numeric date's first two fields: in the reader's locale when it
    is named and its reading is a real day, else the one real reading, else None."""
    local, other = (second, first), (first, second)
    if day_first is False:
        local, other = other, local
    real = [md for md in (local, other) if _safe_date(2024, *md) is not None]
    if day_first is not None and local in real:
        return local
    return real[0] if len(set(real)) == 1 else None


def _short_numeric(text: str, day_first: bool | None) -> list[DateMention]:
    found = []
    for m in _SHORT_NUMERIC.finditer(text):
        reading = _readings(int(m[1]), int(m[2]), day_first)
        value = month_day = None
        if reading is not None and m[3] is not None:
            value = _safe_date(2000 + int(m[3]), *reading)
        elif reading is not None:
            month_day = reading
        found.append(DateMention(m.start(), m.end(), m[0], DateStyle.NUMERIC, value, month_day))
    return found


def _with_weekday(text: str, mention: DateMention) -> DateMention:
    """The mention widened to a weekday written just before it, which it then carries."""
    match = _WEEKDAY.search(text, max(0, mention.start - _WEEKDAY_REACH), mention.start)
    if match is None:
        after = _TRAILING_WEEKDAY.match(text, mention.end)
        if after is None:
            return mention
        return replace(
            mention,
            end=after.end(),
            literal=text[mention.start : after.end()],
            weekday=_WEEKDAYS[after[1].lower()],
        )
    return replace(
        mention,
        start=match.start(),
        literal=text[match.start() : mention.end],
        weekday=_WEEKDAYS[match[1].lower()],
    )


def _sentence(text: str, at: int) -> tuple[int, int]:
    starts = [m.end() for m in _SENTENCE_END.finditer(text, 0, at)]
    end = _SENTENCE_END.search(text, at)
    return (starts[-1] if starts else 0), (end.start() if end else len(text))


def _clause(text: str, at: int, sentence: tuple[int, int]) -> tuple[int, int]:
    """The `;`-clause of the sentence around `at`."""
    start, end = sentence
    before, after = text.rfind(";", start, at), text.find(";", at, end)
    return (start if before == -1 else before + 1), (end if after == -1 else after)


def _months_in(text: str, span: tuple[int, int], mentions: list[DateMention]) -> set[int]:
    """The months named in `text[span]`, by a month word or a date."""
    start, end = span
    months = {_FULL_MONTHS[w.lower()] for w in _FULL_MONTH.findall(text, start, end)}
    return months | {
        month
        for month in (_month_of(d) for d in mentions if start <= d.start < end)
        if month is not None
    }


def _month_of(mention: DateMention) -> int | None:
    if mention.value is not None:
        return mention.value.month
    return mention.month_day[0] if mention.month_day is not None else None


def _days_of_named_month(text: str, mentions: list[DateMention]) -> list[DateMention]:
    """ "el día 15" / "el 15" / "the 15th" in a `;`-clause, else a sentence, that names
    exactly one month."""
    found = []
    for m in _DAY_OF_MONTH.finditer(strip_accents(text)):
        if any(m.start() < d.end and d.start < m.end() for d in mentions):
            continue
        sentence = _sentence(text, m.start())
        clause = _clause(text, m.start(), sentence)
        months = _months_in(text, clause, mentions) or _months_in(text, sentence, mentions)
        day = _number(m[1] or m[2] or m[3])
        if len(months) != 1 or day is None:
            continue
        (month,) = months
        real = _safe_date(2024, month, day) is not None
        found.append(
            DateMention(
                m.start(),
                m.end(),
                text[m.start() : m.end()],
                DateStyle.SPANISH,
                None,
                (month, day) if real else None,
            )
        )
    return found


@remembered
def find_dates(text: str, day_first: bool | None = None) -> list[DateMention]:
    """Every date mention in `text`, in order, without overlaps (the longest wins a tie),
    each widened to the weekday written before it.

    `day_first` is the reader's locale for a numeric date both readings allow: True (Spanish,
    `05/11/2026` is 5 November), False (English, 11 May); None gives such a date no value."""
    chosen: list[DateMention] = []
    for mention in sorted(_candidates(text, day_first), key=lambda d: (d.start, d.start - d.end)):
        if not chosen or mention.start >= chosen[-1].end:
            chosen.append(mention)
    if _ANY_MONTH.search(text) is not None:
        chosen += _days_of_named_month(text, chosen)
    return sorted((_with_weekday(text, m) for m in chosen), key=lambda d: d.start)


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
