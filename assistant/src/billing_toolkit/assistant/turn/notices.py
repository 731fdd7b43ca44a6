"""Fixed replies, Spanish and English: asking for identity, "not found", greetings, hand-offs.

These are the turns where nothing is narrated from evidence, so they are written once, here,
and are the same whichever narrator is configured. They contain no figure of their own: the
only identifiers they repeat are the ones the subscriber just wrote, so "not found" for another
customer's invoice reads exactly like "not found" for an invoice that never existed.
"""

from __future__ import annotations

from collections.abc import Sequence

from billing_toolkit.assistant.text.identifiers import Identifier, IdentifierKind
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.vocabulary.escalation import EscalationReason

_KIND_LABEL: dict[IdentifierKind, tuple[str, str]] = {
    IdentifierKind.INVOICE: ("la factura", "invoice"),
    IdentifierKind.ACCOUNT: ("la cuenta", "account"),
    IdentifierKind.NATIONAL_ID: ("la cédula o RIF", "ID"),
    IdentifierKind.PHONE: ("el teléfono", "phone"),
    IdentifierKind.PAYMENT: ("el pago", "payment"),
}
_EMPTY: dict[str, tuple[str, str]] = {
    "balance": (
        "No encontré un saldo registrado para tu cuenta.",
        "I could not find a balance for your account.",
    ),
    "invoices": (
        "No encontré facturas en tu cuenta.",
        "I could not find any invoices on your account.",
    ),
    "arrears": (
        "No encontré un saldo registrado para tu cuenta.",
        "I could not find a balance for your account.",
    ),
    "last_payment": (
        "No encontré pagos registrados en tu cuenta.",
        "I could not find any payments on your account.",
    ),
    "plan": (
        "No encontré un plan activo en tu cuenta.",
        "I could not find an active plan on your account.",
    ),
    "bill_change": (
        "No encontré dos facturas tuyas para comparar.",
        "I could not find two invoices of yours to compare.",
    ),
    "exchange_rate": (
        "No encontré una tasa publicada para esa fecha.",
        "I could not find a published rate for that date.",
    ),
    "latest_payment_report": (
        "No encontré reportes de pago en tu cuenta.",
        "I could not find any payment reports on your account.",
    ),
    "report_payment": (
        "No pude registrar el reporte con esos datos; revisa la fecha del pago y la referencia.",
        (
            "I could not record the report with those details; please check the payment date and "
            "the reference."
        ),
    ),
}
_HANDOFF: dict[EscalationReason, tuple[str, str]] = {
    EscalationReason.USER_REQUEST: (
        "Claro, te comunico con un asesor. Te escribirá por este mismo chat en breve.",
        "Sure, I'm passing you to an agent. They will write to you in this chat shortly.",
    ),
    EscalationReason.COMPLAINT: (
        (
            "Entiendo. Tu reclamo lo tiene que atender una persona: te comunico con un asesor, "
            "que ya sabe de qué se trata y te escribirá por este mismo chat."
        ),
        (
            "I understand. A person has to handle your complaint: I'm passing you to an agent, "
            "who already knows what it is about and will write to you in this chat."
        ),
    ),
    EscalationReason.TOOL_ERROR: (
        (
            "En este momento no puedo consultar el sistema de facturación. Te comunico con un "
            "asesor, que te escribirá por este mismo chat."
        ),
        (
            "I can't reach the billing system right now. I'm passing you to an agent, who will "
            "write to you in this chat."
        ),
    ),
    EscalationReason.IDENTITY_UNVERIFIED: (
        (
            "Este número de WhatsApp no está registrado en tu cuenta, así que no puedo darte datos "
            "de la cuenta por aquí. Te comunico con un asesor para verificar tu identidad; te "
            "escribirá por este mismo chat."
        ),
        (
            "This WhatsApp number is not registered on your account, so I can't share account "
            "details here. I'm passing you to an agent to verify your identity; they will write to "
            "you in this chat."
        ),
    ),
    EscalationReason.CAPABILITY_MISSING: (
        (
            "Eso lo tiene que hacer una persona: te comunico con un asesor, que ya sabe lo que "
            "necesitas y te escribirá por este mismo chat."
        ),
        (
            "A person has to do that: I'm passing you to an agent, who already knows what you need "
            "and will write to you in this chat."
        ),
    ),
}
_HANDOFF_DEFAULT = (
    (
        "Para darte una respuesta correcta te comunico con un asesor, que te escribirá por este "
        "mismo chat en breve."
    ),
    (
        "To give you an accurate answer I'm passing you to an agent, who will write to you in "
        "this chat shortly."
    ),
)


def _pick(pair: tuple[str, str], language: Language) -> str:
    return pair[1] if language is Language.ENGLISH else pair[0]


def _first_name(name: str | None) -> str:
    return name.split()[0] if name and name.split() else ""


def ask_identity(language: Language) -> str:
    return _pick(
        (
            (
                "Para ayudarte con tu facturación necesito ubicar tu cuenta, porque este número de "
                "WhatsApp no está registrado. Envíame tu número de cuenta o tu cédula con la letra "
                "(V o E)."
            ),
            (
                "To help you with your billing I need to find your account, because this WhatsApp "
                "number is not registered. Please send me your account number or your ID (cédula) "
                "with its letter (V or E)."
            ),
        ),
        language,
    )


def ask_two_factor(language: Language) -> str:
    """The tenant opted into self-service from other phones: both keys are needed."""
    return _pick(
        (
            (
                "Este número de WhatsApp no está registrado en ninguna cuenta. Para darte datos de tu "
                "cuenta necesito tu número de cuenta y tu cédula con la letra (V o E), los dos en el "
                "mismo mensaje."
            ),
            (
                "This WhatsApp number is not registered on any account. To give you account "
                "information I need your account number and your ID (cédula) with its letter (V or "
                "E), both in the same message."
            ),
        ),
        language,
    )


def identity_not_found(language: Language) -> str:
    return _pick(
        (
            (
                "No encontré ninguna cuenta con ese dato. Revísalo y envíamelo de nuevo, o escribe "
                "«asesor» para hablar con una persona."
            ),
            (
                "I could not find an account with that information. Please check it and send it "
                "again, or write “agent” to talk to a person."
            ),
        ),
        language,
    )


def identity_confirmed(name: str | None, language: Language) -> str:
    first = _first_name(name)
    return _pick(
        (
            f"Gracias{', ' + first if first else ''}: ya ubiqué tu cuenta. ¿En qué te puedo ayudar?",
            f"Thank you{', ' + first if first else ''}: I found your account. How can I help you?",
        ),
        language,
    )


def not_found(identifiers: Sequence[Identifier], language: Language) -> str:
    """ "Not found" for identifiers the subscriber gave that are not theirs or do not exist."""
    if language is Language.ENGLISH:
        items = " or ".join(f"{_KIND_LABEL[i.kind][1]} {i.literal}" for i in identifiers)
        return f"I could not find {items} on your account. Please check it and try again."
    items = " ni ".join(f"{_KIND_LABEL[i.kind][0]} {i.literal}" for i in identifiers)
    return f"No encontré {items} en tu cuenta. Verifica el dato e inténtalo de nuevo."


def nothing_on_record(capability: str, language: Language) -> str:
    """The answer to a business "not found" from a capability (no payments yet, …)."""
    return _pick(_EMPTY[capability], language)


def report_dropped(language: Language) -> str:
    """The answer to "olvídalo" while a payment report is being asked for: nothing filed."""
    return _pick(
        (
            (
                "Listo, no registré ningún reporte de pago. Cuando quieras reportarlo, "
                "escríbeme los datos del pago."
            ),
            (
                "All right, I did not record any payment report. Whenever you want to report "
                "it, send me the payment's details."
            ),
        ),
        language,
    )


def greeting(name: str | None, language: Language) -> str:
    first = _first_name(name)
    return _pick(
        (
            (
                f"¡Hola{' ' + first if first else ''}! Soy el asistente de facturación. Puedo decirte tu "
                "saldo, tus facturas, tu último pago o tu plan, y explicarte nuestras políticas. "
                "¿En qué te ayudo?"
            ),
            (
                f"Hi{' ' + first if first else ''}! I'm the billing assistant. I can tell you your "
                "balance, your invoices, your last payment or your plan, and explain our policies. "
                "How can I help?"
            ),
        ),
        language,
    )


def part_unanswered(text: str, language: Language) -> str:
    """One part of a several-question message that nothing backs: named, not guessed."""
    return _pick(
        (
            f"Sobre «{text}» no tengo información confirmada; un asesor puede ayudarte.",
            f"About “{text}” I have no confirmed information; an agent can help you.",
        ),
        language,
    )


def closing(name: str | None, language: Language) -> str:
    first = _first_name(name)
    return _pick(
        (
            f"¡Con gusto{', ' + first if first else ''}! Si necesitas algo más, escríbeme por aquí.",
            (
                f"You're welcome{', ' + first if first else ''}! If you need anything else, write to me "
                "here."
            ),
        ),
        language,
    )


def did_you_mean(read: Sequence[Identifier], suggestions: Sequence[str], language: Language) -> str:
    """An invoice number written in a form we do not silently map: say what was read and
    offer the subscriber's own invoices that it could be; nothing is shown until they pick."""
    literals = ", ".join(i.literal for i in read)
    if not suggestions:
        return not_found(read, language)
    if len(suggestions) == 1:
        return _pick(
            (
                f"Leí «{literals}». ¿Quisiste decir {suggestions[0]}? Responde SÍ para verla.",
                f"I read “{literals}”. Did you mean {suggestions[0]}? Reply YES to see it.",
            ),
            language,
        )
    options = (
        " o ".join(suggestions) if language is not Language.ENGLISH else " or ".join(suggestions)
    )
    return _pick(
        (
            f"Leí «{literals}». ¿Quisiste decir {options}? Escríbeme el número exacto para verla.",
            f"I read “{literals}”. Did you mean {options}? Send me the exact number to see it.",
        ),
        language,
    )


def choose_invoice(
    asked: str | None, options: Sequence[tuple[str, str]], language: Language
) -> str:
    """Several of the subscriber's own invoices fit what they asked ("la de julio", "la
    que termina en 4410"): a labelled choice of (number, issue date in words); nothing is
    shown until they pick one (`asked` None: a follow-up's "esa" that fits several). No
    count and no item numbers: every figure in a reply must be the record's."""
    if language is Language.ENGLISH:
        lines = [f"• {number} (issued {issued})" for number, issued in options]
        head = f"Several of your invoices fit “{asked}”:" if asked else "Which of these?"
        tail = "Which one do you want to see? Send me its number (or “the first one”…)."
    else:
        lines = [f"• {number} (emitida el {issued})" for number, issued in options]
        head = f"Varias facturas tuyas corresponden a «{asked}»:" if asked else "¿Cuál de estas?"
        tail = "¿Cuál quieres ver? Escríbeme su número (o «la primera»…)."
    return "\n".join([head, *lines, tail])


def no_invoice_for_period(asked: str, on_record: Sequence[str], language: Language) -> str:
    """No invoice of the subscriber's is for the period they named: say so, and list the
    periods they do have (so the next question can be one that has an answer)."""
    if language is Language.ENGLISH:
        have = ", ".join(on_record) if on_record else "none"
        return f"I found no invoice of yours for {asked}. Your invoices are for: {have}."
    have = ", ".join(on_record) if on_record else "ninguno"
    return f"No encontré una factura tuya de {asked}. Tus facturas son de: {have}."


def no_payment_for_period(asked: str, on_record: Sequence[str], language: Language) -> str:
    """No payment of the subscriber's was received in the month they named: say so, and the
    months their payments were received in (never another month's payment instead)."""
    if language is Language.ENGLISH:
        have = ", ".join(on_record) if on_record else "none"
        return f"I found no payment of yours received in {asked}. You paid in: {have}."
    have = ", ".join(on_record) if on_record else "ningún mes"
    return f"No encontré un pago tuyo recibido en {asked}. Tus pagos son de: {have}."


def no_payment_for_invoice(language: Language) -> str:
    """No payment among the latest on record was applied to the invoice shown (not named:
    this turn's evidence, the payments, does not carry its number)."""
    return _pick(
        (
            "No encontré un pago aplicado a esa factura entre tus últimos pagos.",
            "I found no payment applied to that invoice among your latest payments.",
        ),
        language,
    )


def no_payment_before(language: Language) -> str:
    """The payment shown (or the last one) is the oldest on record: nothing came before it."""
    return _pick(
        (
            "No encontré un pago anterior a ese en tu cuenta.",
            "I found no payment before that one on your account.",
        ),
        language,
    )


def which_invoice(language: Language) -> str:
    """A follow-up pointing at an invoice ("¿y esa?") with nothing (live) to point at."""
    return _pick(
        (
            (
                "¿Cuál factura? Escríbeme su número, el mes (por ejemplo «la de octubre») o sus "
                "últimos dígitos."
            ),
            (
                "Which invoice? Send me its number, its month (for example “the October bill”) or "
                "its last digits."
            ),
        ),
        language,
    )


def no_invoice_ending(suffix: str, language: Language) -> str:
    """None of the subscriber's invoices ends in the digits they gave."""
    return _pick(
        (
            (
                f"No encontré una factura tuya que termine en {suffix}. Verifica los dígitos o "
                "escríbeme el número completo."
            ),
            (
                f"I found no invoice of yours ending in {suffix}. Please check the digits or send "
                "me the full number."
            ),
        ),
        language,
    )


def handoff(reason: EscalationReason, language: Language) -> str:
    """What the subscriber reads when the conversation goes to a person."""
    return _pick(_HANDOFF.get(reason, _HANDOFF_DEFAULT), language)
