"""Which language to answer in: Spanish by default, English when the subscriber writes English.

The operator's subscribers write Spanish; English is the exception. So English is chosen only
when the message carries more English cue words than Spanish ones; a message with no cue at all
(an invoice number on its own, "ok") keeps the language the conversation already had. Bias: when
in doubt, Spanish.
"""

from __future__ import annotations

import re
from enum import StrEnum

from billing_toolkit.assistant.text.folding import fold


class Language(StrEnum):
    SPANISH = "es"
    ENGLISH = "en"


_ENGLISH_CUES = frozenset(
    (
        "the",
        "my",
        "is",
        "are",
        "what",
        "how",
        "why",
        "when",
        "where",
        "which",
        "i",
        "you",
        "your",
        "bill",
        "bills",
        "invoice",
        "invoices",
        "balance",
        "please",
        "do",
        "does",
        "did",
        "can",
        "could",
        "would",
        "pay",
        "paid",
        "payment",
        "owe",
        "higher",
        "hello",
        "hi",
        "hey",
        "want",
        "need",
        "to",
        "of",
        "and",
        "with",
        "human",
        "agent",
        "last",
        "speak",
        "talk",
        "thanks",
        "thank",
        "am",
        "have",
        "has",
        "this",
        "month",
        "much",
        "many",
        "service",
        "speed",
        "was",
        "were",
        "will",
        # Short follow-ups ("what's in that one?", "and the other one?") carry few of the
        # words above: the function words and contractions no Spanish message uses.
        "what's",
        "that's",
        "it's",
        "i'm",
        "don't",
        "that",
        "it",
        "in",
        "on",
        "at",
        "one",
        "other",
        "previous",
        "show",
        "send",
        "just",
        "yes",
        # Payment reports and the rate, said in a few words ("rate for nov 7?", "sent a
        # transfer yesterday, ref 556677"): words of those topics no Spanish message uses.
        "rate",
        "exchange",
        "dollar",
        "dollars",
        "bolivars",
        "for",
        "from",
        "by",
        "today",
        "yesterday",
        "bank",
        "transfer",
        "sent",
        "made",
        "report",
        "verified",
        "through",
        "news",
        "update",
        "any",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    )
)
_SPANISH_CUES = frozenset(
    (
        "el",
        "la",
        "los",
        "las",
        "mi",
        "mis",
        "es",
        "son",
        "que",
        "como",
        "por",
        "para",
        "cuanto",
        "cuanta",
        "cual",
        "cuando",
        "donde",
        "factura",
        "facturas",
        "saldo",
        "pago",
        "pague",
        "quiero",
        "hola",
        "de",
        "del",
        "con",
        "un",
        "una",
        "debo",
        "porque",
        "mas",
        "tengo",
        "necesito",
        "hablar",
        "asesor",
        "gracias",
        "buenos",
        "buenas",
        "dias",
        "tardes",
        "noches",
        "mes",
        "este",
        "esta",
        "cuenta",
        "servicio",
        "velocidad",
        "puedo",
        "hay",
        "se",
        # The same topics in Spanish ("tasa del 7/11", "y en bolos?", "hice pago movil hoy").
        "y",
        "en",
        "ya",
        "tasa",
        "dolar",
        "bolivares",
        "bolos",
        "hoy",
        "ayer",
        "banco",
        "transferencia",
        "hice",
        "referencia",
        "monto",
        "reporte",
        "les",
        "llego",
        "lunes",
        "martes",
        "miercoles",
        "jueves",
        "viernes",
        "sabado",
        "domingo",
    )
)
_WORD = re.compile(r"(?<![a-z0-9])[a-z']+(?![a-z0-9])")
"""A word; the letters of a code ("QW12ES", "1310bs") are none: their "es" is not Spanish."""


_NAMES = re.compile(r"\bpagos? ?movil(?:es)?\b|\bpagomovil\b|\bp\. ?movil\b")
"""Pago Móvil, the name of a Venezuelan way of paying, is no Spanish: an English subscriber
answering "how did you pay?" writes "pago movil, 1310.40 bs" and is asked on in English."""


def detect_language(text: str, *, fallback: Language = Language.SPANISH) -> Language:
    """The language of `text`, or `fallback` when the text gives no signal either way."""
    words = _WORD.findall(_NAMES.sub(" ", fold(text)))
    english = sum(word in _ENGLISH_CUES for word in words)
    spanish = sum(word in _SPANISH_CUES for word in words)
    if english > spanish:
        return Language.ENGLISH
    if spanish > english:
        return Language.SPANISH
    return fallback
