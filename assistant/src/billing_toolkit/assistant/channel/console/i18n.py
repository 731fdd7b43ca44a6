"""The inbox's words in Spanish and English, and which of them a visitor gets.

The language is the agent's, not the subscriber's: the sign-in page follows the browser's
`Accept-Language`, the agent can switch on every page, and the session remembers the choice.
Escalation summaries are stored in both languages, so the agent reads theirs. Bias: Spanish,
the language of the operators' customers, when nothing says otherwise.
"""

from __future__ import annotations

from billing_toolkit.webconsole.i18n import LANGUAGES, Table, pick, wording

__all__ = ["LANGUAGES", "pick", "texts"]

_TEXTS: Table = {
    # key: (es, en)
    "title": ("Bandeja de agentes", "Agents' inbox"),
    "skip": ("Saltar al contenido", "Skip to content"),
    "signin": ("Iniciar sesión", "Sign in"),
    "signout": ("Cerrar sesión", "Sign out"),
    "token": ("Token de agente de tu operador", "Your operator's agent token"),
    "agent": (
        "Tu nombre de agente (letras, dígitos, . _ @ -)",
        "Your agent name (letters, digits, . _ @ -)",
    ),
    "language": ("Idioma", "Language"),
    "switch": ("Cambiar idioma", "Switch language"),
    "signed_in_as": ("Agente {agent} · {tenant}", "Agent {agent} · {tenant}"),
    "waiting": ("Esperan a una persona", "Waiting for a person"),
    "waiting_none": (
        "Nadie espera ahora. La lista se actualiza sola.",
        "Nobody is waiting now. The list updates by itself.",
    ),
    "active": ("Atendidas por personas", "With a person"),
    "active_none": (
        "Ninguna conversación está con una persona.",
        "No conversation is with a person.",
    ),
    "phone": ("Teléfono", "Phone"),
    "reason": ("Motivo", "Reason"),
    "summary": ("Resumen", "Summary"),
    "waited": ("Espera", "Waiting"),
    "open": ("Abrir", "Open"),
    "agent_has": ("Con {agent}", "With {agent}"),
    "back": ("Volver a la bandeja", "Back to the inbox"),
    "state": ("Estado", "State"),
    "state_bot": ("con el bot", "with the bot"),
    "state_waiting_for_human": ("espera a una persona", "waiting for a person"),
    "state_human_active": ("atendida por {agent}", "with {agent}"),
    "escalations": ("Escalamientos", "Escalations"),
    "escalations_none": ("Sin escalamientos.", "No escalations."),
    "context": ("Contexto", "Context"),
    "messages": ("Conversación", "Conversation"),
    "messages_none": ("Aún no hay mensajes.", "No messages yet."),
    "from_subscriber": ("Cliente", "Customer"),
    "from_us": ("Respuesta", "Reply"),
    "status": ("Entrega", "Delivery"),
    "takeover": ("Tomar la conversación", "Take over"),
    "release": ("Devolver al bot", "Give back to the bot"),
    "write": ("Mensaje al cliente", "Message to the customer"),
    "send": ("Enviar", "Send"),
    "not_found": ("No existe esa conversación.", "There is no such conversation."),
    "bad_token": (
        "Ese token no es de ningún operador de este servicio.",
        "That token belongs to no operator of this service.",
    ),
    "bad_agent": (
        "El nombre de agente debe tener de 1 a 64 letras, dígitos, . _ @ o -.",
        "The agent name must be 1 to 64 letters, digits, . _ @ or -.",
    ),
    "csrf": (
        "El formulario caducó o no vino de esta página. Recárgala e inténtalo de nuevo.",
        "The form expired or did not come from this page. Reload it and try again.",
    ),
    "bad_form": ("El formulario no se pudo leer.", "The form could not be read."),
    "minutes": ("{n} min", "{n} min"),
    "hours": ("{h} h {m} min", "{h} h {m} min"),
    # the handoff rules' refusals, by their stable code
    "already_taken": (
        "Otro agente ({agent}) tiene esta conversación: debe devolverla primero.",
        "Another agent ({agent}) has this conversation: they give it back first.",
    ),
    "not_handed_off": (
        "El bot ya tiene esta conversación.",
        "The bot already has this conversation.",
    ),
    "not_taken_over": (
        (
            "Toma la conversación antes de escribir: el bot y una persona no "
            "deben responder a la vez."
        ),
        (
            "Take the conversation over before writing: the bot and a person "
            "must not answer at the same time."
        ),
    ),
    "invalid_request": (
        ("El mensaje debe tener de 1 a 4096 caracteres, sin emojis partidos ni caracteres NUL."),
        ("The message must be 1 to 4096 characters, without broken emojis or NUL characters."),
    ),
    "invalid_phone": ("Eso no es un número de teléfono.", "That is not a phone number."),
}

texts = wording(_TEXTS)
