"""Does the subscriber ask for a person? Spanish and English, rules first, then the model.

A subscriber who writes "quiero hablar con un asesor" gets a person, every time, without the
bot trying once more: on a channel people use to talk to people, ignoring that request
teaches them the bot is an obstacle. Bias: when a message reads like a request for a human,
it is one — a false positive costs an agent a minute, a false negative costs the subscriber.

Two signals, either suffices: the keyword rules below (contact verb + person, "no quiero
hablar con un bot", "que me llame alguien", "a supervisor", a complaint to a person), and the
intent classifier naming `person` as its best label with at least `PERSON_MIN_CONFIDENCE`.
The union is what reaches 100 % recall on the held-out templates; the confidence floor is what
keeps false hand-overs on clean billing questions under 2 % (both measured by
`understanding/report.py`).

A request for sales ("quiero hablar con un vendedor", "pásame con ventas", "a salesperson")
is a request for a person too; `asks_for_sales` tells it apart for the agent summary.

A bare noun only counts on its own ("agente", "human please"): "agente autorizado de pago"
or "¿cuántas personas pueden conectarse?" are billing questions, not requests.
"""

from __future__ import annotations

import re

from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.understanding.classifier import IntentClassifier
from billing_toolkit.assistant.understanding.labels import IntentLabel

PERSON_MIN_CONFIDENCE = 0.45
"""The classifier's `person` probability at which a message is a request for a person when no
rule fired (it must also be the best label)."""

_SALES_ES = r"(?:vendedor(?:a)?|(?:el )?(?:departamento|area) (?:de ventas|comercial)|ventas)"
_SALES_EN = r"(?:sales(?:person| team| department| rep| representative)?|salesman|saleswoman)"
_BUYING = (
    r"(?:quiero|quisiera|deseo|necesito|queremos|me gustaria|me interesa|como (?:puedo|hago))"
    r"(?: para)? (?:contratar|adquirir)(?: \S+){0,2} "
    r"(?:servicio|internet|fibra|plan|punto|linea|conexion)"
    r"|(?:i want|i'd like|i would like|how (?:do|can) i) to (?:sign up|buy|purchase|get)"
    r"(?: for)? (?:a |an |the )?(?:new )?(?:service|connection|line|internet|fiber)"
)
"""Wanting to buy ("quiero contratar internet para mi negocio", "I'd like to sign up for a
new connection"): a sales conversation, handed to a person — not a plan change the bot
cannot make. Only the wish: "¿cuánto cuesta contratar el plan de 300?" is a price, answered."""
_PERSON_ES = (
    rf"(?:un |una |el |la |algun |alguna )?(?:asesor(?:a|es)?|agente|operador(?:a)?|"
    r"humano|persona(?: real| de verdad)?|representante|ejecutivo|ejecutiva|alguien|"
    rf"gente|supervisor(?:a)?|(?:atencion|servicio) al cliente|{_SALES_ES})"
)
_PERSON_EN = (
    rf"(?:a |an |the |some |your )?(?:human(?: being)?|(?:live |real )?(?:agent|person)|"
    rf"representative|rep|operator|someone|somebody|supervisor|customer service|{_SALES_EN})"
)

_REQUESTS = tuple(
    re.compile(pattern)
    for pattern in (
        # Spanish: a verb of contact followed, within a few words, by a person.
        (
            rf"\b(?:hablar|comunicarme|comunicar|conversar|chatear|contactar|atender(?:me)?|"
            rf"pasame|pasenme|paseme|transfiereme|transfieranme|comunicame|comuniquenme|conectame|"
            rf"me (?:comunicas|comunica|comunican|pasas|pasa|pasan|transfieres|transfiere|"
            rf"conectas|pones|ponen))\b"
            rf"(?: \S+){{0,3}} (?:con )?{_PERSON_ES}\b"
        ),
        rf"\b(?:quiero|quisiera|necesito|deseo|prefiero|pido|exijo)(?: \S+){{0,2}} {_PERSON_ES}\b",
        r"\batencion (?:humana|personalizada)\b",
        rf"\b(?:{_BUYING})\b",
        # English.
        rf"\b(?:talk|speak|chat)(?: to| with)(?: \S+){{0,2}} {_PERSON_EN}\b",
        # Refusing the bot is asking for a person: "no quiero hablar con un bot".
        (
            r"\bno (?:quiero|deseo|voy a) (?:hablar|chatear|seguir hablando|conversar) con (?:un |una |el |la )?"
            r"(?:bot|maquina|robot|contestadora)\b"
        ),
        (
            r"\b(?:don't|do not|dont) want to (?:talk|speak|chat|deal) (?:to|with) (?:a |the |an )?"
            r"(?:bot|machine|robot)\b"
        ),
        # Being called back, a manager or a supervisor, a complaint to a person.
        (
            r"\b(?:que me (?:llame|contacte|atienda)|me (?:pueden|puede|podrian) llamar|llamenme|"
            r"quiero que me llamen)\b(?: \S+){0,2}"
        ),
        r"\b(?:call me|give me a call|phone me|ring me)\b",
        r"\b(?:gerente|supervisor(?:a)?|encargado|manager|your boss)\b",
        r"\b(?:persona|humano|agente|asesor) (?:real|de verdad|de carne y hueso)\b",
        r"\b(?:real|live) (?:person|human|agent)\b",
        rf"\b(?:connect|transfer|put|pass)(?: me)?(?: through)? (?:to|with) {_PERSON_EN}\b",
        (
            rf"\b(?:i want|i need|i'd like|i would like|get me|give me|can i (?:get|have))"
            rf" {_PERSON_EN}\b"
        ),
        # A bare request: the person word alone, perhaps with please/por favor.
        rf"^(?:(?:por favor|porfa|please|pls) )?{_PERSON_ES}(?: (?:por favor|porfa|please|pls))?$",
        rf"^(?:(?:por favor|porfa|please|pls) )?{_PERSON_EN}(?: (?:por favor|porfa|please|pls))?$",
    )
)
_PUNCTUATION = re.compile(r"[^\w' ]+")
_SALES = re.compile(rf"\b(?:{_SALES_ES}|{_SALES_EN}|{_BUYING})\b")


def _plain(message: str) -> str:
    return " ".join(_PUNCTUATION.sub(" ", fold(message)).split())


def asks_for_sales(message: str) -> bool:
    """Whether the person asked for is sales ("pásame con ventas", "a salesperson"): the
    agent summary says so, so the request reaches the team that sells."""
    return bool(_SALES.search(_plain(message)))


def asks_for_person(message: str, classifier: IntentClassifier | None = None) -> str | None:
    """What asks for a human agent — the matching phrase, or `classifier <name> p=…` — or
    None when the message does not ask."""
    text = _plain(message)
    for pattern in _REQUESTS:
        match = pattern.search(text)
        if match:
            return match[0]
    if classifier is None:
        return None
    prediction = classifier.classify(message)
    if prediction.label is IntentLabel.PERSON and prediction.confidence >= PERSON_MIN_CONFIDENCE:
        return f"classifier {classifier.name} p={prediction.confidence:.2f}"
    return None
