"""Rate questions the turn answers from the billing API rather than the knowledge base.

"¿A cómo está la tasa hoy?" asks today's official rate (`getExchangeRate`); "¿cuánto es mi
deuda en bolívares?" asks the subscriber's amount due at that rate. "¿Qué tasa usan para
facturar?" asks which rate the operator uses — a policy, answered from the knowledge base —
and is neither. Read on folded text (`text/folding.py`). Bias: only a question in so many
words is one of these; anything vaguer stays with the intent model.
"""

from __future__ import annotations

import re

from billing_toolkit.assistant.text.dates import find_dates

_TODAYS_RATE = re.compile(
    r"\ba (?:como|cuanto) (?:esta|estara|amanecio|quedo|va) (?:hoy )?(?:la tasa|el dolar|el cambio)"
    r"|\b(?:la )?(?:tasa|dolar|cambio|tasa bcv|tasa del bcv|precio del dolar)(?: \S+){0,3}? "
    r"(?:de hoy|del dia(?! (?:de|que|en|del|cuando)\b)|hoy|actual|de ahorita)\b"
    r"|\b(?:cual|como) (?:es|esta|sera) la tasa\b(?! (?:que|de cambio que) (?:usan|aplican))"
    r"|\b(?:what'?s|what is|whats|tell me) (?:the )?(?:exchange |dollar |bcv |bolivar )?rate"
    r"(?: \S+){0,2}? (?:today|now|right now)\b"
    r"|\btoday'?s (?:exchange |dollar |bcv |bolivar |official )?rate\b"
    r"|\b(?:the )?current (?:exchange |dollar |bcv |bolivar |official )?rate\b"
    r"|\bwhat'?s the (?:exchange |dollar |bcv )?rate\??$"
)
_IN_BOLIVARES = re.compile(r"\b(?:en|in) (?:bolivares|bolivars|bolos|bs\.?|ves)(?!\w)")
_HOW_MUCH = re.compile(r"\b(?:cuanto|cuantos|how much|what)\b")
_MINE = re.compile(
    r"\b(?:debo|deuda|saldo|factura|recibo|eso|esa|me toca|tengo que pagar|pago|mensualidad|"
    r"owe|debt|balance|bill|invoice|that|it|i pay|i have to pay)\b"
)


_RATE_ASKED = re.compile(
    r"\b(?:a (?:como|cuanto)|cual|que|what|which|how much)\b(?: \S+){0,5} "
    r"(?:tasa|dolar|rate|exchange rate)\b"
)


_POLICY = re.compile(r"\b(?:usan|aplican|toman|use|apply|take|uses|applies)\b")
"""Which rate the operator uses ("¿qué tasa usan para la factura del 5?") is its policy."""


def asks_todays_rate(text: str) -> bool:
    """ "¿A cómo está la tasa hoy?", "what's the rate today": today's official rate; or the
    rate of a day it names ("¿a cómo estuvo la tasa el sábado 7 de noviembre?")."""
    if _TODAYS_RATE.search(text):
        return True
    return bool(_RATE_ASKED.search(text) and find_dates(text) and not _POLICY.search(text))


def asks_due_in_bolivares(text: str) -> bool:
    """ "¿Cuánto es mi deuda en bolívares?", "how much is that in bolivars": their own amount
    due, at today's rate."""
    return bool(_IN_BOLIVARES.search(text) and _HOW_MUCH.search(text) and _MINE.search(text))
