"""Rate questions the turn answers from the billing API rather than the knowledge base.

"¿A cómo está la tasa hoy?" asks today's official rate (`getExchangeRate`); "¿cuánto es mi
deuda en bolívares?" asks the subscriber's amount due at that rate. "¿Qué tasa usan para
facturar?" asks which rate the operator uses — a policy, answered from the knowledge base —
and is neither. Read on folded text (`text/folding.py`). Bias: only a question in so many
words is one of these; anything vaguer stays with the intent model.
"""

from __future__ import annotations

import re

from billing_toolkit.assistant.understanding.partial_identifiers import suffix_asked
from billing_toolkit.assistant.understanding.payment_report_reading import names_a_day
from billing_toolkit.assistant.understanding.periods import period_asked

_TODAYS_RATE = re.compile(
    r"\b(?:a |en )?(?:como|cuanto) (?:esta|estara|estaba|estuvo|amanecio|quedo|va|cerro|abrio) "
    r"(?:hoy |ayer )?"
    r"(?:la tasa|el dolar|el cambio)"
    r"|\b(?:la tasa|el dolar|el cambio)(?: (?:hoy|oficial|bcv))? (?:a|en) (?:como|cuanto)\b"
    r"|^(?:y )?(?:la )?(?:tasa|dolar|precio del dolar|tasa oficial)(?: (?:bcv|del bcv|oficial))?"
    r"(?: (?:por favor|porfa|pls))?[ ?!.]*$"
    r"|\b(?:la )?(?:tasa|dolar|cambio|tasa bcv|tasa del bcv|precio del dolar)(?: \S+){0,3}? "
    r"(?:de hoy|del dia(?! (?:de|que|en|del|cuando)\b)|hoy|actual|de ahorita)\b"
    r"|\b(?:cual|como) (?:es|esta|sera) la tasa\b(?! (?:que|de cambio que) (?:usan|aplican))"
    r"|\b(?:what'?s|what is|whats|tell me) (?:the )?(?:exchange |dollar |bcv |bolivar )?rate"
    r"(?: \S+){0,2}? (?:today|now|right now)\b"
    r"|\btoday'?s (?:exchange |dollar |bcv |bolivar |official )?rate\b"
    r"|\b(?:the )?current (?:exchange |dollar |bcv |bolivar |official )?rate\b"
    r"|\b(?:what'?s|what is|whats) the (?:exchange |dollar |bcv |official )?rate\??$"
    r"|^(?:and |ok |so )?(?:the )?(?:(?:exchange|dollar|bcv|official|bolivar|bs|usd) )*rate"
    r"(?: (?:today|now|pls|please|bcv))*[ ?!.]*$"
    r"|\brate (?:for |of )?(?:today|now|right now)\b"
    # "¿a qué tasa?" alone, after a conversion: the rate it was made at, today's
    r"|^[¿¡]?\s*(?:(?:y|e|ok|and|so|pero|but),? )*(?:a que tasa|a cual tasa|con que tasa|at what rate"
    r"|at which rate|which rate)[ ?!.]*$"
)
"""Today's rate in so many words; in English a few are enough ("rate today?", "bcv rate?",
"dollar rate pls"), as "tasa bcv" is in Spanish."""
_BOLIVARES = r"(?:bolivares|bolivars|bolos|bs\.?|ves)(?!\w)"
_IN_BOLIVARES = re.compile(rf"\b(?:en|in) {_BOLIVARES}|\bcuantos {_BOLIVARES}")
_HOW_MUCH = re.compile(r"\b(?:cuanto|cuantos|how much|what)\b")
_MINE = re.compile(
    r"\b(?:debo|deuda|saldo|factura|recibo|eso|esa|me toca|tengo que pagar|pago|mensualidad|"
    r"me sale|sale|seria|serian|son|es|owe|debt|balance|bill|invoice|that|it|i pay|"
    r"i have to pay|vencido|mora|overdue|amount)\b"
)
_OWN_IN_BOLIVARES = re.compile(
    rf"\b(?:(?:mi )?(?:saldo|deuda|factura)(?: \S+)??|lo que (?:debo|tengo que pagar)|what i owe) "
    rf"(?:en|in) {_BOLIVARES}"
)
"""Their own figure named in bolívares without a "how much": "¿mi saldo en bs?", "lo que
debo en bs"."""
_ONLY_IN_BOLIVARES = re.compile(
    r"^(?:(?:ok|okay|y|and|e|pero|but) )*(?:(?:cuanto|how much)(?: es| is)? )?"
    rf"(?:en|in) {_BOLIVARES}"
    r"(?: (?:please|pls|porfa|por favor))?[ ?!.]*$"
)
"""A follow-up that is nothing but the currency ("¿y en bolos?", "ok and in bs?", "how much
in bolos?"): what they owe, now in bolívares."""
_RATE_ITSELF = re.compile(r"\b(?:es|esta|seria|son|is) (?:el dolar|la tasa|el cambio|the rate)\b")
"""The rate itself asked in bolívares ("¿cuánto es el dólar en bs?"): not their amount due."""
_PRICE_OF = re.compile(r"\b(?:plan|planes|instalacion|router|equipo|cuesta|cuestan|cost|costs)\b")
"""A price asked in bolívares ("¿cuánto es el plan en bs?") is not their amount due."""
_FIGURE = re.compile(r"\d")
"""A figure of their own ("¿cuánto es 20 dólares en bolívares?") is a conversion asked, not
their amount due."""


_RATE_ASKED = re.compile(
    r"\b(?:a (?:como|cuanto)|cual|que|what|which|how much)\b(?: \S+){0,5} "
    r"(?:tasa|dolar|dollar|rate|exchange rate)\b"
    r"|\b(?:tasa|dolar|dollar|rate)\b(?: (?:bcv|del bcv|oficial|official))?"
    r"(?: (?:del?|el|on|for|of)\b)?"
)
"""The rate asked of a day the message names (`names_a_day`): "¿a cómo estuvo el dólar
ayer?", "tasa del 7/11", "bcv rate on november 7", "exchange rate yesterday?"."""


_POLICY = re.compile(r"\b(?:usan|aplican|toman|use|apply|take|uses|applies)\b")
"""Which rate the operator uses ("¿qué tasa usan para la factura del 5?") is its policy."""


def asks_todays_rate(text: str) -> bool:
    """ "¿A cómo está la tasa hoy?", "what's the rate today": today's official rate; or the
    rate of a day it names ("¿a cómo estuvo la tasa el sábado 7 de noviembre?")."""
    if _TODAYS_RATE.search(text):
        return True
    return bool(_RATE_ASKED.search(text) and names_a_day(text) and not _POLICY.search(text))


_OVERDUE = re.compile(r"\b(?:vencid[oa]s?|lo vencido|mora|atrasad[oa]s?|overdue|past[- ]due)\b")
_PAST = re.compile(r"\b(?:era|fue|fueron|eran|was|were)\b")
"""A figure asked in the past ("¿y esa cuánto era en bolívares?"): an invoice's, not what is
due today."""


def asks_overdue_in_bolivares(text: str) -> bool:
    """ "¿Lo vencido en bs cuánto es?": the overdue amount, not all that is due, in bolívares."""
    return asks_due_in_bolivares(text) and bool(_OVERDUE.search(text))


def asks_due_in_bolivares(text: str) -> bool:
    """ "¿Cuánto es mi deuda en bolívares?", "how much is that in bolivars": their own amount
    due, at today's rate. Not a figure asked in the past, nor one of an invoice named by its
    month or digits: converting today's amount due would answer another question."""
    if _FIGURE.search(text) or _RATE_ITSELF.search(text) or _PRICE_OF.search(text):
        return False
    if _PAST.search(text) or period_asked(text) is not None or suffix_asked(text) is not None:
        return False
    if _OWN_IN_BOLIVARES.search(text) or _ONLY_IN_BOLIVARES.search(text):
        return True
    return bool(_IN_BOLIVARES.search(text) and _HOW_MUCH.search(text) and _MINE.search(text))
