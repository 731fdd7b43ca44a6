"""Relative dates: "mañana", "ayer", "la próxima semana", "tomorrow", "in 3 days".

A relative date is true only on the day it is read: "vence mañana" is right on the 9th and
wrong on the 10th, and the evidence states absolute dates. So the verifier accepts one only
when the evidence itself says it in the same words (a policy chunk's "en 2 días hábiles");
otherwise it is a date the reply made up. "hoy"/"today" are left out: they are in greetings
and in "as of today" far more often than in a date a subscriber acts on.
"""

from __future__ import annotations

import re

from billing_toolkit.assistant.text.number_words import RUN

_COUNT = rf"(?:\d+|{RUN})"
_WEEKDAY_NAMES = (
    r"(?:lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo|monday|tuesday|wednesday"
    r"|thursday|friday|saturday|sunday)"
)
_RELATIVE = re.compile(
    "|".join(
        (
            r"\bpasado[ \t]+ma[ñn]ana\b",
            r"(?<!la )(?<!esta )(?<!una )(?<!cada )(?<!buena )\bma[ñn]ana\b",
            r"\b(?:anteayer|antier|ayer)\b",
            r"\b(?:la[ \t]+)?(?:pr[oó]xima|siguiente)[ \t]+semana\b",
            r"\bla[ \t]+semana[ \t]+(?:que[ \t]+viene|pr[oó]xima|pasada)\b",
            r"\bel[ \t]+(?:pr[oó]ximo|siguiente)[ \t]+mes\b",
            r"\bel[ \t]+mes[ \t]+(?:que[ \t]+viene|pr[oó]ximo|pasado)\b",
            rf"\b(?:el[ \t]+)?(?:pr[oó]ximo|este)[ \t]+{_WEEKDAY_NAMES}\b",
            rf"\b(?:dentro[ \t]+de|en|hace)[ \t]+{_COUNT}[ \t]+(?:d[ií]as?|semanas?|meses|mes)\b",
            r"\b(?:the[ \t]+day[ \t]+after[ \t]+)?tomorrow\b",
            r"\b(?:the[ \t]+day[ \t]+before[ \t]+)?yesterday\b",
            rf"\b(?:next|last|this[ \t]+coming)[ \t]+(?:week|month|{_WEEKDAY_NAMES})\b",
            rf"\b(?:in|within)[ \t]+{_COUNT}[ \t]+(?:days?|weeks?|months?)\b",
            rf"\b{_COUNT}[ \t]+(?:days?|weeks?|months?)[ \t]+(?:ago|from[ \t]+now)\b",
        )
    ),
    re.IGNORECASE,
)


def find_relative_dates(text: str) -> list[tuple[int, int, str]]:
    """(start, end, literal) of every relative date in `text`, in order."""
    return [(m.start(), m.end(), m[0]) for m in _RELATIVE.finditer(text)]
