"""Is the message a complaint, a formal claim or a legal or regulatory threat? Rules only.

A complaint is not a billing question: whatever figure the bot could quote, the subscriber
wants someone to own the problem, and a regulator or a lawyer named in a chat is something a
person must see today. So a complaint hands over as `COMPLAINT` (its own reason, so the agent
knows what they are walking into) before any routing — even when the message also asks
something ("¿cuánto debo? igual voy a poner la denuncia").

Bias: recall first, as for requests for a person. A false positive costs an agent a minute;
a missed "los voy a denunciar" costs the operator a regulator's letter. The words are
specific enough that billing questions do not use them ("reclamo" is never how a subscriber
asks for their balance); the ones that do have an innocent reading ("queja" in "me quejo del
precio" is still a complaint, on purpose) stay in.
"""

from __future__ import annotations

import re

from billing_toolkit.assistant.text.folding import fold

_COMPLAINTS = tuple(
    re.compile(pattern)
    for pattern in (
        # Spanish: a complaint or claim, lodged or announced.
        r"\b(?:reclamo|reclamos|reclamacion|queja|quejas|quejarme|me quejo|denuncia|denuncias)\b",
        r"\b(?:denunciar(?:los|las|te)?|los voy a denunciar|voy a denunciar|demandar(?:los)?|demanda)\b",
        r"\b(?:hoja|libro) de reclamaciones\b",
        # Accusations: calling the bill a theft or the company swindlers is a complaint,
        # whatever else the message says ("esto es un robo", "son unos estafadores").
        (
            r"\b(?:es un robo|un robo|estafa|estafas|estafadores?|estafando|ladrones|"
            r"sinverguenzas|es un abuso|abusadores|fraude)\b"
        ),
        # Paid and still charged: the subscriber disputes a payment not applied, which no
        # figure the bot can quote settles. (A bill that went up or came twice is a bill
        # question: "me cobraron de más" is answered by comparing the invoices.)
        r"\b(?:(?:me )?siguen cobrando|me sigue(?:n)? llegando el cobro|cobro indebido)\b",
        # Anger or disgust said outright, and leaving for another provider: someone must
        # own it, whatever the figures say ("estoy harto", "pésimo servicio", "me cambio de
        # proveedor"). A slow or cut service alone is a question for the service check.
        (
            r"\b(?:estoy|estamos|ya estoy) (?:muy |bien |tan )?(?:hart[oa]s?|molest[oa]s?|"
            r"indignad[oa]s?|furios[oa]s?|arrech[oa]s?|cansad[oa]s? de|decepcionad[oa]s?)\b|"
            r"\b(?:pesimo|pesima|malisimo|malisima|que mal|muy mal|mal) (?:servicio|atencion)\b|"
            r"\b(?:una verguenza|que verguenza|falta de respeto|no es justo|es injusto|"
            r"inaceptable|inadmisible|una porqueria|un desastre)\b|"
            r"\b(?:(?:me (?:voy a )?cambi(?:o|ar|are)|cambiarme|cambiarnos) (?:de|a otr[oa]) "
            r"(?:proveedor|compania|empresa))\b"
        ),
        # The regulators and consumer-protection offices subscribers name.
        (
            r"\b(?:ente regulador|conatel|sundde|indepabis|defensoria del pueblo|"
            r"proteccion al consumidor|defensa del consumidor|fiscalia)\b"
        ),
        # Lawyers and legal action.
        r"\b(?:abogado|abogada|abogados|accion(?:es)? legal(?:es)?|tribunal(?:es)?)\b",
        r"\b(?:via legal|por la via legal|instancias legales|medidas legales)\b",
        # English.
        r"\b(?:complaint|complaints|complain|file a claim|formal claim|grievance)\b",
        r"\b(?:lawyer|attorney|legal action|sue you|sue (?:the|your) company|lawsuit|court)\b",
        r"\b(?:regulator|regulatory (?:body|authority)|consumer protection|ombudsman)\b",
        r"\b(?:report you to|i will report you|i'll report you)\b",
        r"\b(?:scam|scammers|rip ?off|ripoff|thieves|fraud|daylight robbery)\b",
        r"\b(?:(?:you |they )?(?:keep|are still|still) charging me)\b",
        (
            r"\b(?:unacceptable|outrageous|disgraceful|disrespectful|not fair|unfair|"
            r"fed up|sick and tired|sick of|(?:worst|terrible|awful|horrible|pathetic) "
            r"(?:service|company|provider|support|customer service)|"
            r"(?:i am|i'm|we are|we're) (?:so |very |really )?(?:angry|furious|upset|"
            r"frustrated|disappointed|outraged)|switch(?:ing)? (?:to )?(?:another|a different) "
            r"(?:provider|company))\b"
        ),
    )
)


def is_complaint(message: str) -> str | None:
    """The phrase that makes `message` a complaint, claim or threat, or None."""
    text = " ".join(re.sub(r"[^\w' ]+", " ", fold(message)).split())
    for pattern in _COMPLAINTS:
        match = pattern.search(text)
        if match:
            return match[0]
    return None
