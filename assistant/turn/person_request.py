"""Does the subscriber ask for a person? Spanish and English.

A subscriber who writes "quiero hablar con un asesor" gets a person, every time, without the
bot trying once more: on a channel people use to talk to people, ignoring that request
teaches them the bot is an obstacle. Bias: when a message reads like a request for a human,
it is one — a false positive costs an agent a minute, a false negative costs the subscriber.

A bare noun only counts on its own ("agente", "human please"): "agente autorizado de pago"
or "¿cuántas personas pueden conectarse?" are billing questions, not requests.
"""

from __future__ import annotations

import re

from billing_toolkit.assistant.text.folding import fold

_PERSON_ES = (r"(?:un |una |el |la |algun |alguna )?(?:asesor(?:a|es)?|agente|operador(?:a)?|"
              r"humano|persona(?: real| de verdad)?|representante|ejecutivo|ejecutiva|alguien|"
              r"gente|supervisor(?:a)?|(?:atencion|servicio) al cliente)")
_PERSON_EN = (r"(?:a |an |the |some |your )?(?:human(?: being)?|(?:live |real )?(?:agent|person)|"
              r"representative|rep|operator|someone|somebody|supervisor|customer service)")

_REQUESTS = tuple(re.compile(pattern) for pattern in (
    # Spanish: a verb of contact followed, within a few words, by a person.
    (rf"\b(?:hablar|comunicarme|comunicar|conversar|chatear|contactar|atender(?:me)?|"
    rf"pasame|pasenme|paseme|transfiereme|transfieranme|comunicame|comuniquenme|conectame)\b"
    rf"(?: \S+){{0,3}} (?:con )?{_PERSON_ES}\b"),
    rf"\b(?:quiero|quisiera|necesito|deseo|prefiero|pido|exijo)(?: \S+){{0,2}} {_PERSON_ES}\b",
    r"\batencion (?:humana|personalizada)\b",
    # English.
    rf"\b(?:talk|speak|chat)(?: to| with)(?: \S+){{0,2}} {_PERSON_EN}\b",
    rf"\b(?:connect|transfer|put|pass)(?: me)?(?: through)? (?:to|with) {_PERSON_EN}\b",
    (rf"\b(?:i want|i need|i'd like|i would like|get me|give me|can i (?:get|have))"
    rf" {_PERSON_EN}\b"),
    # A bare request: the person word alone, perhaps with please/por favor.
    rf"^(?:(?:por favor|porfa|please|pls) )?{_PERSON_ES}(?: (?:por favor|porfa|please|pls))?$",
    rf"^(?:(?:por favor|porfa|please|pls) )?{_PERSON_EN}(?: (?:por favor|porfa|please|pls))?$",
))
_PUNCTUATION = re.compile(r"[^\w' ]+")


def asks_for_person(message: str) -> str | None:
    """The phrase that asks for a human agent, or None when the message does not ask."""
    text = _PUNCTUATION.sub(" ", fold(message))
    text = " ".join(text.split())
    for pattern in _REQUESTS:
        match = pattern.search(text)
        if match:
            return match[0]
    return None
