"""What the channel itself tells subscribers and agents, apart from the pipeline's turns.

Two events hand a conversation to a person outside a turn: a reply that could not be
delivered (`DELIVERY_FAILED`) and a message that could not be processed
(`PROCESSING_FAILED`). Each gets an agent summary in Spanish and English, stored like the
pipeline's escalations so the console lists them together. The subscriber texts are short
and fixed: they contain no figure and no identifier, so they need no grounding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from billing_toolkit.assistant.text.language import Language

DELIVERY_FAILED = "DELIVERY_FAILED"
PROCESSING_FAILED = "PROCESSING_FAILED"

_TEXT_ONLY = {
    Language.SPANISH: (
        "Por ahora solo puedo leer mensajes de texto. ¿Me escribes tu consulta, por favor?"
    ),
    Language.ENGLISH: "For now I can only read text messages. Could you type your question?",
}
_PASSED_ON = {
    Language.SPANISH: (
        "No pude procesar tu mensaje. Una persona de nuestro equipo te responderá por aquí."
    ),
    Language.ENGLISH: ("I could not process your message. A person from our team will reply here."),
}


def text_only(language: Language) -> str:
    """The reply to an audio, image, location… message."""
    return _TEXT_ONLY[language]


def passed_on(language: Language) -> str:
    """The reply to a message whose turn failed: a person takes it from here."""
    return _PASSED_ON[language]


@dataclass(frozen=True, slots=True)
class Handoff:
    """A hand-off found outside a turn, as the store records it."""

    phone: str
    reason: str
    summary_es: str
    summary_en: str
    context: dict[str, Any]


def delivery_failed(phone: str, text: str, error: str | None, attempts: int) -> Handoff:
    return Handoff(
        phone,
        DELIVERY_FAILED,
        (
            f"No se pudo entregar una respuesta al cliente (teléfono {phone}) tras {attempts} "
            f"intentos.\nRespuesta no entregada: «{text}»\nError: {error}"
        ),
        (
            f"A reply could not be delivered to the customer (phone {phone}) after {attempts} "
            f"attempts.\nUndelivered reply: “{text}”\nError: {error}"
        ),
        {"phone": phone, "undelivered_reply": text, "error": error, "attempts": attempts},
    )


def processing_failed(
    phone: str, kind: str, text: str | None, error: str, attempts: int
) -> Handoff:
    message = text if text is not None else f"[{kind}]"
    return Handoff(
        phone,
        PROCESSING_FAILED,
        (
            f"El bot no pudo procesar un mensaje del cliente (teléfono {phone}) tras {attempts} "
            f"intentos.\nMensaje: «{message}»\nError: {error}"
        ),
        (
            f"The bot could not process a message from the customer (phone {phone}) after "
            f"{attempts} attempts.\nMessage: “{message}”\nError: {error}"
        ),
        {"phone": phone, "message": message, "error": error, "attempts": attempts},
    )
