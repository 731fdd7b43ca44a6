"""Numbers written in words, Spanish and English, read to their value.

A model that writes "sesenta y dos dólares" or "sixty-two dollars" states a figure as surely
as one that writes `USD 62,00`, so the verifier reads it by value: cardinals with "y"/"and"
and hyphens (`treinta y dos`, `forty-five`, `one hundred and five`), hundreds
(`doscientos`, `two hundred`), `mil`/`thousand` and `millón`/`million`, and cents after
"con" (`cuarenta y cinco con cincuenta` = 45.50; `... dollars and fifty cents`). Day ordinals
(`primero`, `fifteenth`, `twenty-first`) are read for dates.

A run of number words is read strictly: every word must add something smaller than what
came before it in its group ("treinta cuarenta", "cinco y tres", "cien mil mil" have no
value). A run with no value is returned with `value=None`, and a caller in a money or date
context rejects it. A run with no unit is a figure when it ends its phrase ("un recargo de
seis.") or counts days ("quince días"), and is judged like the same digits; a count of things
("dos facturas") is not. Bias: a spelling we cannot read exactly has no reading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from billing_toolkit.assistant.text.currencies import CONFLICT, unit_after, unit_before
from billing_toolkit.assistant.text.folding import fold, strip_accents
from billing_toolkit.assistant.text.remembered import remembered

_UNITS = {
    "cero": 0, "un": 1, "uno": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5,
    "seis": 6, "siete": 7, "ocho": 8, "nueve": 9,
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9,
}  # fmt: skip
_WHOLE_WORDS = {
    "diez": 10, "once": 11, "doce": 12, "trece": 13, "catorce": 14, "quince": 15,
    "dieciseis": 16, "diecisiete": 17, "dieciocho": 18, "diecinueve": 19, "veintiun": 21,
    "veintiuno": 21, "veintiuna": 21, "veintidos": 22, "veintitres": 23, "veinticuatro": 24,
    "veinticinco": 25, "veintiseis": 26, "veintisiete": 27, "veintiocho": 28,
    "veintinueve": 29,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_WHOLE_WORDS |= {
    f"{ten}i{unit}": value + _UNITS[unit]
    for ten, value in (("treinta", 30), ("cuarenta", 40), ("cincuenta", 50), ("sesenta", 60),
                       ("setenta", 70), ("ochenta", 80), ("noventa", 90))
    for unit in ("un", "uno", "una", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho",
                 "nueve")
}  # fmt: skip
"""Words that stand for a whole number below 100 and take no unit after them (with the
glued Spanish tens people type: "cuarentaicinco")."""
_TENS = {
    "veinte": 20, "treinta": 30, "cuarenta": 40, "cincuenta": 50, "sesenta": 60,
    "setenta": 70, "ochenta": 80, "noventa": 90,
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
_HUNDREDS = {
    "cien": 100, "ciento": 100, "doscientos": 200, "doscientas": 200, "trescientos": 300,
    "trescientas": 300, "cuatrocientos": 400, "cuatrocientas": 400, "quinientos": 500,
    "quinientas": 500, "seiscientos": 600, "seiscientas": 600, "setecientos": 700,
    "setecientas": 700, "ochocientos": 800, "ochocientas": 800, "novecientos": 900,
    "novecientas": 900,
}  # fmt: skip
_SCALES = {"mil": 1000, "thousand": 1000, "millon": 10**6, "millones": 10**6, "million": 10**6}
_ORDINALS = {
    "primero": 1, "primer": 1,
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
}  # fmt: skip
_HUNDRED = "hundred"
_CONNECTORS = ("y", "and")
_WORDS = {*_UNITS, *_WHOLE_WORDS, *_TENS, *_HUNDREDS, *_SCALES, _HUNDRED}


def _pattern(words: set[str]) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


_WORD = rf"(?:{_pattern(_WORDS)})"
RUN = rf"\b{_WORD}(?:(?:[ \t]+(?:y|and)[ \t]+|[ \t]+|-){_WORD})*\b"
"""A run of cardinal words (a regex, case-insensitive where used): `treinta y dos`. Like
`YEAR` and `ORDINAL`, it is matched against `strip_accents(text)`, where "veintiséis" reads
"veintiseis": the words are written without accents, which keeps the pattern cheap."""
YEAR = (
    rf"\b(?:dos[ \t]+mil|two[ \t]+thousand)"
    rf"(?:(?:[ \t]+and)?[ \t]+{_WORD}(?:(?:[ \t]+(?:y|and)[ \t]+|[ \t]+|-){_WORD})*)?\b"
)
"""A year in words (a regex): `dos mil veintiséis`, `two thousand and twenty-six`."""
ORDINAL = rf"\b(?:(?:twenty|thirty)[ \t-])?(?:{_pattern(set(_ORDINALS))})\b"
"""A day ordinal in words: `primero`, `fifteenth`, `twenty-first`."""
_RUN = re.compile(RUN, re.IGNORECASE)
_CENTS = re.compile(rf"[ \t]+con[ \t]+({RUN})", re.IGNORECASE)
_TRAILING_CENTS = re.compile(
    rf"[ \t]+(?:(?:con|y|and)[ \t]+({RUN})[ \t]+(?:centavos|centimos|cents?)\b"
    rf"|con[ \t]+({RUN}))",
    re.IGNORECASE,
)
"""Cents after the unit: "... dollars and fifty cents", "... dólares con cincuenta" (after
"con" the cents word may be left out; after "y"/"and" it may not: "and fifty" is no cents)."""
_DIGIT_CENTS = re.compile(
    r"[ \t]+(?:(?:con|y|and)[ \t]+(\d{1,2})[ \t]+(?:centavos|c[eé]ntimos|cents?)\b"
    r"|con[ \t]+(\d{1,2})(?!\d|[.,]\d))",
    re.IGNORECASE,
)
_SCALE_AFTER = re.compile(
    r"[ \t]*(?:mil|mill[oó]n|millones|millardos?|thousand|million|billion|k|mm)\b", re.IGNORECASE
)
"""A scale word after digits: "45 mil", "USD 1,2 millones", "45k" are not the digits' value."""
_HALF = re.compile(r"[ \t]+(?:y|and)[ \t]+(?:medio|media|a[ \t]+half)\b", re.IGNORECASE)
"""A half after the figure or its unit: "cuarenta y cinco dólares y medio" is 45.50."""
_SPLIT = re.compile(r"[\s-]+")


_CENTS_PER_UNIT = 100


@dataclass(frozen=True, slots=True)
class SpelledNumber:
    """A run of number words in a text: its span, as written, and its value (None when the
    words do not make one number)."""

    start: int
    end: int
    literal: str
    value: Decimal | None


def _group_limit(word: str) -> int:
    """What may still be added after `word` in its group (below a thousand)."""
    if word in _TENS:
        return 9
    if word in _HUNDREDS or word == _HUNDRED:
        return 99
    return 0


def read_number_words(literal: str) -> int | None:
    """The value of a run of cardinal words, or None when it is not one well-formed number:
    `read_number_words("dos mil veintiséis") == 2026`."""
    words = [fold(w) for w in _SPLIT.split(literal.strip()) if fold(w) not in _CONNECTORS]
    total, group, room, scale = 0, 0, 999, 10**9
    for word in words:
        if word in _SCALES:
            size = _SCALES[word]
            multiplier = group or (1 if word == "mil" else 0)
            if not multiplier or size >= scale:
                return None
            total, group, room, scale = total + multiplier * size, 0, 999, size
        elif word == _HUNDRED:
            if not 0 < group < 10:
                return None
            group, room = group * 100, 99
        else:
            value = {**_UNITS, **_WHOLE_WORDS, **_TENS, **_HUNDREDS}[word]
            if value > room or (value == 0 and len(words) > 1):
                return None
            group, room = group + value, _group_limit(word)
    return total + group


_SPANISH_BELOW_30 = [
    "cero",
    "uno",
    "dos",
    "tres",
    "cuatro",
    "cinco",
    "seis",
    "siete",
    "ocho",
    "nueve",
    "diez",
    "once",
    "doce",
    "trece",
    "catorce",
    "quince",
    "dieciséis",
    "diecisiete",
    "dieciocho",
    "diecinueve",
    "veinte",
    "veintiuno",
    "veintidós",
    "veintitrés",
    "veinticuatro",
    "veinticinco",
    "veintiséis",
    "veintisiete",
    "veintiocho",
    "veintinueve",
]
_SPANISH_TENS = ["treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"]
_SPANISH_HUNDREDS = [
    "ciento",
    "doscientos",
    "trescientos",
    "cuatrocientos",
    "quinientos",
    "seiscientos",
    "setecientos",
    "ochocientos",
    "novecientos",
]
_ENGLISH_BELOW_20 = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_ENGLISH_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _spanish_hundreds(n: int, hundreds: int) -> str:
    return "cien" if n == 100 else _SPANISH_HUNDREDS[hundreds - 1] if hundreds else ""


def _english_hundreds(_: int, hundreds: int) -> str:
    return f"{_ENGLISH_BELOW_20[hundreds]} hundred" if hundreds else ""


_SPELLERS = {
    False: (_spanish_hundreds, _SPANISH_BELOW_30, _SPANISH_TENS, " y "),
    True: (_english_hundreds, _ENGLISH_BELOW_20, _ENGLISH_TENS, "-"),
}
"""Per language (english?): the hundreds, the single words below the first ten that takes a
unit, the tens from there, and what joins a ten to its unit."""


def _below_1000(n: int, *, english: bool) -> str:
    hundreds_words, below, tens_words, joiner = _SPELLERS[english]
    hundreds, rest = divmod(n, 100)
    tens, unit = divmod(rest, 10)
    if rest < len(below):
        tail = below[rest] if rest or not hundreds else ""
    else:
        tail = tens_words[tens - len(below) // 10] + (f"{joiner}{below[unit]}" if unit else "")
    return " ".join(part for part in (hundreds_words(n, hundreds), tail) if part)


def spell_number(n: int, *, english: bool) -> str:
    """A whole number below a million in words, the way the reader reads it back:
    `spell_number(62, english=False) == "sesenta y dos"` (used to inject wrong figures)."""
    if not 0 <= n < 10**6:
        raise ValueError(f"can only spell 0 to 999999, not {n}")
    thousands, rest = divmod(n, 1000)
    if not thousands:
        return _below_1000(rest, english=english)
    scale = "thousand" if english else "mil"
    head = (
        scale
        if thousands == 1 and not english
        else f"{_below_1000(thousands, english=english)} {scale}"
    )
    return f"{head} {_below_1000(rest, english=english)}" if rest else head


def _read_ordinal(literal: str) -> int:
    """The day a day ordinal (a match of `ORDINAL`) names: `twenty-first` → 21."""
    *tens, last = [fold(w) for w in _SPLIT.split(literal.strip())]
    return sum(_TENS[t] for t in tens) + _ORDINALS[last]


def read_spelled_value(literal: str) -> int | None:
    """A day or year spelled out, as a cardinal or an ordinal (None when unreadable)."""
    return (
        _read_ordinal(literal)
        if re.fullmatch(ORDINAL, strip_accents(literal), re.IGNORECASE)
        else read_number_words(literal)
    )


@remembered
def find_spelled_numbers(text: str) -> list[SpelledNumber]:
    """Every run of number words in `text`, with cents after "con" folded into its value
    (`cuarenta y cinco con cincuenta` = 45.50; cents of 100 or more have no value)."""
    found: list[SpelledNumber] = []
    plain = strip_accents(text)
    for match in _RUN.finditer(plain):
        if found and match.start() < found[-1].end:
            continue
        whole = read_number_words(match[0])
        value = None if whole is None else Decimal(whole)
        end = match.end()
        cents = _CENTS.match(plain, end)
        if cents is not None:
            value, end = _with_cents(value, cents[1]), cents.end()
        value, end = _with_half(text, value, end)
        found.append(SpelledNumber(match.start(), end, text[match.start() : end], value))
    return found


@dataclass(frozen=True, slots=True)
class SpelledAmount:
    """A spelled-out figure with its unit: `start`/`end` span the words and the unit."""

    start: int
    end: int
    literal: str
    value: Decimal | None
    unit: str


def _with_half(text: str, value: Decimal | None, end: int) -> tuple[Decimal | None, int]:
    """The value and end of a figure with "y medio"/"and a half" after `end`, if written."""
    half = _HALF.match(text, end)
    if half is None:
        return value, end
    return (None if value is None else value + Decimal("0.5")), half.end()


def scaled(text: str, end: int) -> bool:
    """Digits ending at `end` are followed by a scale word ("45 mil"): they are not a figure
    we may read by their digits, so a caller rejects them."""
    return _SCALE_AFTER.match(text, end) is not None


def fraction_after(text: str, end: int) -> tuple[Decimal | None, int] | None:
    """The cents or half written after a whole figure (or its unit) ending at `end` — "con
    cincuenta", "con 50", "y 50 centavos", "and fifty cents", "y medio" — and where they end;
    None when none is written. The fraction is None when it cannot be read (100 cents)."""
    cents = _TRAILING_CENTS.match(strip_accents(text), end)
    if cents is not None:
        return _with_cents(Decimal(0), cents[1] or cents[2]), cents.end()
    digits = _DIGIT_CENTS.match(text, end)
    if digits is not None:
        return Decimal(digits[1] or digits[2]) / _CENTS_PER_UNIT, digits.end()
    value, half_end = _with_half(text, Decimal(0), end)
    return None if half_end == end else (value, half_end)


def _with_cents(value: Decimal | None, cents: str) -> Decimal | None:
    hundredths = read_number_words(cents)
    if value is None or hundredths is None or hundredths >= _CENTS_PER_UNIT:
        return None
    return value + Decimal(hundredths) / _CENTS_PER_UNIT


def find_spelled_amounts(text: str) -> list[SpelledAmount]:
    """Every run of number words with a unit beside it (`sesenta y dos dólares`, `USD
    cuarenta`, `cinco por ciento`), cents after the unit included (`... dólares con cincuenta
    centavos`, `... dollars and fifty cents`). Runs with no unit are no figures here."""
    found = []
    for spelled in find_spelled_numbers(text):
        if found and spelled.start < found[-1].end:
            continue
        before, after = unit_before(text, spelled.start), unit_after(text, spelled.end)
        if before is None and after is None:
            continue
        value, end = spelled.value, spelled.end
        if after is not None:
            end = after[1]
            fraction = fraction_after(text, end)
            if fraction is not None:
                value = None if value is None or fraction[0] is None else value + fraction[0]
                end = fraction[1]
        units = {u for u in (before, after[0] if after else None) if u is not None}
        unit = units.pop() if len(units) == 1 else CONFLICT
        found.append(SpelledAmount(spelled.start, end, text[spelled.start : end], value, unit))
    return found


_FIGURE_END = re.compile(
    r"[ \t]*(?:[.;:!?)]|,(?![ \t]*\d)|\Z)"
    r"|[ \t]+(?:d[ií]as?|days?|semanas?|weeks?|meses|months?|a[ñn]os?|years?)\b",
    re.IGNORECASE,
)
"""What makes a spelled number with no unit a figure: it ends its phrase ("un recargo de
seis.") or counts days, weeks, months or years ("te quedan quince días")."""
_PER = re.compile(r"\b(?:por|per)[ \t]+\Z", re.IGNORECASE)
"""The "ciento"/"cent" of "16 por ciento" is the percent sign, not a figure."""
_PRONOUNS = {"un", "uno", "una", "one"}
"""Single words that are far more often a pronoun or article ("tienes una.") than a figure."""


def find_spelled_figures(text: str) -> list[SpelledNumber]:
    """Every run of number words with no unit that stands as a figure (see `_FIGURE_END`),
    not as a count of things ("tienes dos facturas" is no figure)."""
    return [
        spelled
        for spelled in find_spelled_numbers(text)
        if fold(spelled.literal) not in _PRONOUNS
        and _FIGURE_END.match(text, spelled.end)
        and not _PER.search(text, max(0, spelled.start - 8), spelled.start)
    ]
