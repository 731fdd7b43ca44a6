"""Escalations: why the bot handed a conversation to a person, told so the person need not
re-read the thread.

Each reason carries a one-line summary in Spanish and English, followed by the facts the agent
needs — who the customer is, what they wrote, which capability failed and how, and what reply
was stopped and why — and the same facts as structured context for tooling. The agent summary
is meant for the operator's own staff, so it is not masked; logs and traces are.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any


class EscalationReason(StrEnum):
    NO_CONTEXT = "NO_CONTEXT"
    UNGROUNDED_OUTPUT = "UNGROUNDED_OUTPUT"
    USER_REQUEST = "USER_REQUEST"
    TOOL_ERROR = "TOOL_ERROR"
    CAPABILITY_MISSING = "CAPABILITY_MISSING"
    FORBIDDEN_PHRASE = "FORBIDDEN_PHRASE"
    IDENTITY_UNVERIFIED = "IDENTITY_UNVERIFIED"
    COMPLAINT = "COMPLAINT"


_HEADLINE: dict[EscalationReason, tuple[str, str]] = {
    EscalationReason.NO_CONTEXT: (
        (
            "El cliente preguntó algo que no está en la base de conocimiento ni en el sistema de "
            "facturación."
        ),
        (
            "The customer asked something that is neither in the knowledge base nor in the "
            "billing system."
        ),
    ),
    EscalationReason.UNGROUNDED_OUTPUT: (
        "El bot iba a dar una cifra, identificador o cita sin respaldo; se detuvo por seguridad.",
        (
            "The bot was about to state a figure, identifier or citation without support; it was "
            "stopped for safety."
        ),
    ),
    EscalationReason.USER_REQUEST: (
        "El cliente pidió hablar con una persona.",
        "The customer asked to talk to a person.",
    ),
    EscalationReason.TOOL_ERROR: (
        "No se pudo consultar el sistema de facturación (posible caída).",
        "Could not query the billing system (possible outage).",
    ),
    EscalationReason.CAPABILITY_MISSING: (
        "El cliente quiere algo que el bot todavía no puede consultar ni hacer.",
        "The customer wants something the bot cannot query or do yet.",
    ),
    EscalationReason.FORBIDDEN_PHRASE: (
        (
            "La respuesta del bot prometía algo que solo una persona puede decidir (reembolso, "
            "exoneración, garantía, servicio restablecido o tono legal); se detuvo."
        ),
        (
            "The bot's reply promised something only a person can decide (refund, waiver, "
            "guarantee, service restored or legal language); it was stopped."
        ),
    ),
    EscalationReason.IDENTITY_UNVERIFIED: (
        (
            "El cliente pide datos de una cuenta desde un teléfono que no es el registrado; hay "
            "que verificar su identidad antes de darle información de la cuenta."
        ),
        (
            "The customer asks for account data from a phone that is not the registered one; "
            "verify their identity before giving any account information."
        ),
    ),
    EscalationReason.COMPLAINT: (
        (
            "El cliente presenta un reclamo o una queja, o menciona una denuncia, un ente "
            "regulador o acciones legales; el bot no respondió nada más."
        ),
        (
            "The customer is making a complaint or a formal claim, or mentions a regulator or "
            "legal action; the bot answered nothing else."
        ),
    ),
}


@dataclass(frozen=True, slots=True)
class EscalationContext:
    """The structured facts of an escalation: customer, request, failure, what was stopped."""

    phone: str
    message: str
    account_number: str | None = None
    customer_name: str | None = None
    capability: str | None = None
    tool_error: str | None = None
    stopped_reply: str | None = None
    unsupported: tuple[str, ...] = field(default_factory=tuple)
    wants: str | None = None
    """What the subscriber wants done (CAPABILITY_MISSING), in a few words."""


@dataclass(frozen=True, slots=True)
class AgentSummary:
    es: str
    en: str


@dataclass(frozen=True, slots=True)
class Escalation:
    reason: EscalationReason
    summary: AgentSummary
    context: EscalationContext

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason.value,
            "summary": asdict(self.summary),
            "context": asdict(self.context),
        }


_OPTIONAL_FACTS = (
    ("wants", "Quiere: {}.", "Wants: {}."),
    ("capability", "Capacidad: {}.", "Capability: {}."),
    ("tool_error", "Error: {}", "Error: {}"),
    ("stopped_reply", "Respuesta detenida: «{}»", "Stopped reply: “{}”"),
    ("unsupported", "Motivo: {}", "Because of: {}"),
)


def _facts(context: EscalationContext) -> list[tuple[str, str]]:
    """(Spanish, English) lines: who, what they wrote, then whatever else is known."""
    if context.account_number:
        name, account, phone = context.customer_name, context.account_number, context.phone
        who = (
            f"Cliente: {name or 'sin nombre'} (cuenta {account}, teléfono {phone}).",
            f"Customer: {name or 'no name'} (account {account}, phone {phone}).",
        )
    else:
        who = (
            f"Cliente sin identificar (teléfono {context.phone}).",
            f"Unidentified customer (phone {context.phone}).",
        )
    lines = [who, (f"Mensaje: «{context.message}»", f"Message: “{context.message}”")]
    for field_name, es, en in _OPTIONAL_FACTS:
        value = getattr(context, field_name)
        text = ", ".join(value) if isinstance(value, tuple) else value
        if text:
            lines.append((es.format(text), en.format(text)))
    return lines


def escalate(reason: EscalationReason, context: EscalationContext) -> Escalation:
    """Build the escalation the human agent receives."""
    lines = [_HEADLINE[reason], *_facts(context)]
    summary = AgentSummary(es="\n".join(es for es, _ in lines), en="\n".join(en for _, en in lines))
    return Escalation(reason, summary, context)
