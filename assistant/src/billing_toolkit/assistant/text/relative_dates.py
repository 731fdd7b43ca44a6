"""Relative dates: "mañana", "el viernes", "la próxima semana", "tomorrow", "in 3 days".

A relative date is true only on the day it is read: "vence mañana" is right on the 14th and
wrong on the 15th, and the evidence states absolute dates. So the verifier accepts one only
when the evidence itself says it: in the same words (a policy chunk's "en 2 días hábiles"),
or, for one that names an exact count of days (`relative_days`: "mañana" is +1, "en 16
días" +16, "hace 9 días" −9, "in a week" +7), when the evidence states that count from the
record's own today (the capabilities' computed "16 days until the next due date …", "fell
due …, 9 days ago"), or when that many days from the billing system's today (the evidence's
"as of") is a date the figure's record holds ("vence en 16 días" of an invoice due 16 days
after the balance's as-of date). Anything vaguer ("en unos días", "a fin de mes", "this week", a weekday
with no date, "el 16 del próximo mes") is a date the reply made up unless stated. "This
month" / "este mes" alone name a billing period ("your bill this month") and are left out;
"hoy" / "today" count only where something falls due on it ("vence hoy", "due today"):
elsewhere they are in greetings and in "as of today" far more often than in a date a
subscriber acts on.
"""

from __future__ import annotations

import re
from datetime import date

from billing_toolkit.assistant.text.folding import fold, strip_accents
from billing_toolkit.assistant.text.months import ENGLISH_NAMES, SPANISH_NAMES
from billing_toolkit.assistant.text.number_words import RUN, read_number_words
from billing_toolkit.assistant.text.remembered import remembered

_COUNT = rf"(?:\d+|{RUN}|an?)"
_VAGUE = r"(?:unos|pocos|algunos|un[ \t]+par[ \t]+de|a[ \t]+few|a[ \t]+couple[ \t]+of|several|some)"
_WEEKDAY_NAMES = (
    r"(?:lunes|martes|miercoles|jueves|viernes|sabado|domingo|monday|tuesday|wednesday"
    r"|thursday|friday|saturday|sunday)"
)
_MONTH_NAMES = "|".join(name.lower() for name in (*SPANISH_NAMES, *ENGLISH_NAMES))
_RELATIVE = re.compile(
    "|".join(
        (
            r"\bpasado[ \t]+manana\b",
            r"(?<!la )(?<!esta )(?<!una )(?<!cada )(?<!buena )\bmanana\b",
            r"\b(?:anteayer|antier|ayer)\b",
            r"\b(?:vencen?|vencio|venceran?|expira|caduca)[ \t]+hoy\b",
            r"\b(?:(?:is|are|was|were)[ \t]+)?due[ \t]+today\b|\bexpires[ \t]+today\b",
            r"\b(?:la[ \t]+)?(?:proxima|siguiente)[ \t]+semana\b",
            r"\bla[ \t]+semana[ \t]+(?:que[ \t]+viene|proxima|pasada)\b|\besta[ \t]+semana\b",
            r"\bel[ \t]+(?:proximo|siguiente)[ \t]+mes\b",
            r"\bel[ \t]+mes[ \t]+(?:que[ \t]+viene|proximo|pasado)\b",
            (
                rf"\b(?:el[ \t]+(?:dia[ \t]+)?)?(?:\d{{1,2}}|{RUN})[ \t]+del?[ \t]+"
                r"(?:(?:este|proximo|siguiente)[ \t]+mes|mes[ \t]+(?:que[ \t]+viene|proximo))\b"
            ),
            r"\b(?:the[ \t]+)?\d{1,2}(?:st|nd|rd|th)?[ \t]+of[ \t]+(?:this|next)[ \t]+month\b",
            (
                r"\b(?:a[ \t]+)?(?:fin(?:al)?(?:es)?|principios|inicios|comienzos|mediados)[ \t]+del?"
                rf"[ \t]+(?:mes|semana|ano|{_MONTH_NAMES})\b"
            ),
            (
                r"\b(?:the[ \t]+)?(?:end|beginning|start|middle)[ \t]+of[ \t]+(?:the[ \t]+)?"
                rf"(?:month|week|year|{_MONTH_NAMES})\b"
            ),
            rf"\b(?:early|mid|late)[ \t-](?:month|week|{_MONTH_NAMES})\b",
            rf"\b(?:el[ \t]+)?(?:proximo|este)[ \t]+{_WEEKDAY_NAMES}\b",
            (
                rf"\b(?:dentro[ \t]+de|en|hace)[ \t]+(?:{_COUNT}|{_VAGUE})[ \t]+"
                r"(?:dias?|semanas?|meses|mes)\b"
            ),
            r"\b(?:the[ \t]+day[ \t]+after[ \t]+)?tomorrow\b",
            r"\b(?:the[ \t]+day[ \t]+before[ \t]+)?yesterday\b",
            rf"\b(?:next|last|this[ \t]+coming)[ \t]+(?:week|month|{_WEEKDAY_NAMES})\b",
            rf"\bthis[ \t]+(?:week|{_WEEKDAY_NAMES})\b",
            rf"\b(?:in|within)[ \t]+(?:{_COUNT}|{_VAGUE})[ \t]+(?:days?|weeks?|months?)\b",
            rf"\b{_COUNT}[ \t]+(?:days?|weeks?|months?)[ \t]+(?:ago|from[ \t]+(?:now|today))\b",
            rf"\b{_WEEKDAY_NAMES}\b",
        )
    ),
    re.IGNORECASE,
)
_FIXED_DAYS = {
    "pasado manana": 2, "the day after tomorrow": 2, "manana": 1, "tomorrow": 1, "ayer": -1,
    "yesterday": -1, "anteayer": -2, "antier": -2, "the day before yesterday": -2,
}  # fmt: skip
_COUNTED = re.compile(
    rf"(?:(?P<ahead>dentro de|en|in)|(?P<back>hace)) (?P<n>{_COUNT}) (?P<unit>\w+)"
    rf"|(?P<n2>{_COUNT}) (?P<unit2>\w+) (?:(?P<ago>ago)|from (?:now|today))",
    re.IGNORECASE,
)
_WEEK_WORDS = {"semana", "semanas", "week", "weeks"}
_DAY_WORDS = {"dia", "dias", "day", "days"}
_STATED_DAYS = re.compile(r"\b(\d+) days (?:(until)|ago)\b")
"""How the capabilities state a computed count of days: "16 days until the next due date",
"fell due 2026-11-20, 9 days ago"."""


@remembered
def find_relative_dates(text: str) -> list[tuple[int, int, str]]:
    """(start, end, literal) of every relative date in `text`, in order (matched without
    accents, `strip_accents`: "mañana" and "manana" alike)."""
    return [
        (m.start(), m.end(), text[m.start() : m.end()])
        for m in _RELATIVE.finditer(strip_accents(text))
    ]


def _count(written: str) -> int | None:
    if written.isdigit():
        return int(written)
    return 1 if written in {"a", "an"} else read_number_words(written)


def relative_days(wording: str) -> int | None:
    """The days from today a relative date names (negative: past), when it names an exact
    count of days or weeks; None for anything vaguer (months, "unos días", "within")."""
    folded = re.sub(r"\s+", " ", fold(wording))
    if folded in _FIXED_DAYS:
        return _FIXED_DAYS[folded]
    words = folded.split()
    if ("hoy" in words or "today" in words) and "from" not in words:
        return 0
    match = _COUNTED.fullmatch(folded)
    if match is None:
        return None
    count = _count(match["n"] or match["n2"])
    unit = match["unit"] or match["unit2"]
    if count is None or unit not in _DAY_WORDS | _WEEK_WORDS:
        return None
    days = count * (7 if unit in _WEEK_WORDS else 1)
    return -days if match["back"] or match["ago"] else days


def stated_days(text: str) -> set[int]:
    """The counts of days from the record's today that `text` states (see `_STATED_DAYS`)."""
    return {int(m[1]) * (1 if m[2] else -1) for m in _STATED_DAYS.finditer(text)}


_AS_OF = re.compile(r"\bas of (\d{4})-(\d{2})-(\d{2})")
"""How the capabilities state the billing system's today: "Balance … as of 2026-11-29T…"."""


def stated_today(text: str) -> date | None:
    """The billing system's today as `text` states it, or None when it states none or more
    than one (a relative date cannot be counted from a today in doubt)."""
    days = {date(int(m[1]), int(m[2]), int(m[3])) for m in _AS_OF.finditer(text)}
    return days.pop() if len(days) == 1 else None
