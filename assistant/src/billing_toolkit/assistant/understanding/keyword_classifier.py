"""The keyword router as a classifier: the baseline the trained model is measured against.

These are the rules the assistant routed with before intents were learned (Spanish and
English phrase lists, first match wins). They stay for two jobs: as the benchmark's and the
intent report's baseline, and — the high-precision ones, in `turn/intents.py` — as overrides
on top of the model. Confidence is 1.0 for a matched rule and 0.0 for the fallback.
"""

from __future__ import annotations

import re

from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.understanding.classifier import IntentPrediction, prediction_from
from billing_toolkit.assistant.understanding.labels import IntentLabel
from billing_toolkit.assistant.understanding.person_request import asks_for_person


def _alternatives(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns))


WANT = (
    r"\b(?:quiero|quisiera|necesito|deseo|me gustaria|puedes|podrias|pueden|podrian|"
    r"i want to|i'd like to|i would like to|i need to|please|can you|could you)\b"
)
ACTIONS: tuple[tuple[IntentLabel, re.Pattern[str]], ...] = (
    (
        IntentLabel.PLAN_CHANGE,
        _alternatives(
            rf"{WANT}(?: \S+){{0,3}} (?:cambiar|subir|bajar|mejorar|change|upgrade|downgrade|"
            r"switch)\b(?: \S+){0,3} plan\b",
            r"\b(?:cambiame|cambienme|subeme|bajame) (?:el |de )?plan\b",
        ),
    ),
    (
        IntentLabel.CANCELLATION,
        _alternatives(
            r"\b(?:dar(?:me)? de baja|cancelar (?:el|mi) (?:servicio|contrato|cuenta|plan))\b",
            r"\b(?:cancel|terminate|close) (?:my|the) (?:service|subscription|account|contract|plan)\b",
        ),
    ),
    (
        IntentLabel.PAYMENT_REPORT,
        _alternatives(
            r"\b(?:reportar|registrar|notificar|cargar)(?: \S+){0,2} pagos?\b",
            r"\b(?:report|register|record|submit)(?: \S+){0,2} payments?\b",
        ),
    ),
)
"""Requests to *do* something, precise enough to override the model: a payment report the
assistant files itself (`turn/payment_reports.py`); the rest only a person can do."""
BILL_INCREASE = _alternatives(
    r"\b(?:mas (?:alta|cara|elevada|alto|caro)|subio|aumento|incremento|salio mas|"
    r"me cobraron mas|pago mas)\b",
    r"\bpor que\b.{0,40}\b(?:mas|tanto)\b",
    r"\b(?:higher|more expensive|(?:go|goes|going|went|gone) up|increased?)\b",
    r"\bwhy\b.{0,40}\b(?:more|so much)\b",
)
_RULES: tuple[tuple[IntentLabel, re.Pattern[str]], ...] = (
    *ACTIONS,
    (IntentLabel.BILL_INCREASE, BILL_INCREASE),
    (IntentLabel.INVOICE, re.compile(r"\binv[\s_/-]?\d")),
    (
        IntentLabel.POLICY,
        _alternatives(
            r"\b(?:como (?:puedo|hago|se|cambio|pago|funciona)|que pasa si|que sucede si)\b",
            r"\b(?:how (?:do|can|does|to)|what happens if)\b",
        ),
    ),
    (
        IntentLabel.LAST_PAYMENT,
        _alternatives(
            r"\b(?:ultimo pago|mi pago|pague|recibieron (?:mi )?pago|llego (?:mi )?pago)\b",
            r"\b(?:last payment|my payment|i paid|did you (?:get|receive) (?:my )?payment)\b",
        ),
    ),
    (
        IntentLabel.INVOICE_LIST,
        _alternatives(
            r"\b(?:mis facturas|ultimas? facturas?|facturas (?:pendientes|vencidas|anteriores)|"
            r"historial de facturas|mi factura|mi recibo)\b",
            r"\b(?:my (?:invoices|bills|invoice|bill)|(?:last|latest|recent) (?:invoice|bill)s?|"
            r"(?:unpaid|overdue) (?:invoices|bills))\b",
        ),
    ),
    (
        IntentLabel.BALANCE,
        _alternatives(
            r"\b(?:saldo|cuanto debo|que debo|lo que debo|debo algo|deuda|estado de cuenta|"
            r"monto a pagar|cuanto (?:tengo|hay) que pagar)\b",
            r"\b(?:balance|how much do i owe|what do i owe|do i owe|amount due|outstanding)\b",
        ),
    ),
    (
        IntentLabel.PLAN,
        _alternatives(
            r"\b(?:mi plan|que plan tengo|plan (?:tengo|contratado)|mi velocidad|cuantos megas tengo)\b",
            r"\b(?:my plan|which plan do i have|what plan (?:do i have|am i on)|my speed)\b",
        ),
    ),
)
_GREETING_WORDS = (
    r"hola|buenas|buenos dias|buen dia|buenas tardes|buenas noches|saludos|hi|"
    r"hello|hey|good morning|good afternoon"
)
_THANKS_WORDS = (
    r"gracias|muchas gracias|mil gracias|ok|okay|listo|perfecto|dale|chao|adios|"
    r"thanks|thank you|thx|bye|goodbye"
)
_GREETING = re.compile(rf"\W*(?:(?:{_GREETING_WORDS})\W*)+")
_THANKS = re.compile(rf"\W*(?:(?:{_THANKS_WORDS})\W*)+")
_COURTESY_EDGES = re.compile(
    rf"^\W*(?:(?:{_GREETING_WORDS}|{_THANKS_WORDS})\b\W*)+|"
    rf"(?:\W+(?:{_GREETING_WORDS}|{_THANKS_WORDS})\b)+\W*$"
)


def short_courtesy(text: str) -> IntentLabel | None:
    """GREETING or THANKS when the folded `text` is nothing but courtesy words."""
    if _GREETING.fullmatch(text):
        return IntentLabel.GREETING
    if _THANKS.fullmatch(text):
        return IntentLabel.THANKS
    return None


def without_courtesy(text: str) -> str:
    """The folded `text` without the courtesy words around the question: "hola buenas,
    cuanto debo? gracias" is a balance question, and the greeting must not outvote it.
    Empty when the text is courtesy only (`short_courtesy` answers those)."""
    return _COURTESY_EDGES.sub(" ", text).strip()


class KeywordClassifier:
    """First matching rule wins; nothing matched is POLICY with confidence 0."""

    name = "keyword-rules"

    def classify(self, message: str) -> IntentPrediction:
        text = fold(message)
        if asks_for_person(message):
            return _certain(IntentLabel.PERSON)
        for label, pattern in _RULES:
            if pattern.search(text):
                return _certain(label)
        courtesy = short_courtesy(text)
        if courtesy is not None:
            return _certain(courtesy)
        return prediction_from({IntentLabel.POLICY: 0.0})


def _certain(label: IntentLabel) -> IntentPrediction:
    return prediction_from({label: 1.0})
