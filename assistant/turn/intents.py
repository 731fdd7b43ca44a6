"""Intent routing: which capability answers a message (Spanish and English keyword rules).

Rules are tried in a fixed order and the first that matches wins, so a message is routed the
same way every time:

1. an action the bot cannot perform ("quiero cambiar mi plan", "cancel my service", "reportar
   un pago") → UNSUPPORTED (escalated CAPABILITY_MISSING: a person can do it);
2. "why is my bill higher" → BILL_CHANGE;
3. an invoice number in the message → INVOICE (the number is a hard constraint);
4. a how-to question ("¿cómo cambio mi plan?", "what happens if I pay late") → POLICY;
5. last payment, invoice list, balance, own plan;
6. a greeting or thanks on its own → GREETING;
7. anything else → POLICY, answered from the knowledge base or escalated NO_CONTEXT.

Bias: a question about the subscriber's *own* data needs a possessive or personal cue
("mi plan", "cuánto debo"); without one it is a policy question ("¿qué planes tienen?"),
answered from documents, which never reveal personal data.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.text.identifiers import Identifier, IdentifierKind


class Intent(StrEnum):
    BALANCE = "balance"
    INVOICES = "invoices"
    INVOICE = "invoice"
    LAST_PAYMENT = "last_payment"
    PLAN = "plan"
    BILL_CHANGE = "bill_change"
    POLICY = "policy"
    GREETING = "greeting"
    UNSUPPORTED = "unsupported"


@dataclass(frozen=True, slots=True)
class Route:
    """Where a message goes: the intent, the capability to call and its keyword arguments.

    `cue` is the phrase that decided (None when nothing matched and POLICY is the default).
    """

    intent: Intent
    capability: str | None
    params: Mapping[str, Any] = field(default_factory=dict)
    cue: str | None = None


@dataclass(frozen=True, slots=True)
class _Rule:
    intent: Intent
    capability: str | None
    pattern: re.Pattern[str]


def _rule(intent: Intent, capability: str | None, *alternatives: str) -> _Rule:
    return _Rule(intent, capability, re.compile("|".join(f"(?:{a})" for a in alternatives)))


_WANT = (r"\b(?:quiero|quisiera|necesito|deseo|me gustaria|puedes|podrias|pueden|podrian|"
         r"i want to|i'd like to|i would like to|i need to|please|can you|could you)\b")
_UNSUPPORTED = (
    _rule(Intent.UNSUPPORTED, "change_plan",
          rf"{_WANT}(?: \S+){{0,3}} (?:cambiar|subir|bajar|mejorar|change|upgrade|downgrade|"
          r"switch)\b(?: \S+){0,3} plan\b",
          r"\b(?:cambiame|cambienme|subeme|bajame) (?:el |de )?plan\b"),
    _rule(Intent.UNSUPPORTED, "cancel_service",
          r"\b(?:dar(?:me)? de baja|cancelar (?:el|mi) (?:servicio|contrato|cuenta))\b",
          r"\b(?:cancel|terminate|close) (?:my|the) (?:service|subscription|account|contract)\b"),
    _rule(Intent.UNSUPPORTED, "record_payment",
          r"\b(?:reportar|registrar|notificar|cargar)(?: \S+){0,2} pagos?\b",
          r"\b(?:report|register|record|submit)(?: \S+){0,2} payments?\b"),
    _rule(Intent.UNSUPPORTED, "usage",
          r"\bconsumo de (?:datos|internet)\b|\bcuantos (?:gb|gigas|megas) (?:he )?(?:usado|gastado)",
          r"\b(?:data usage|how much data)\b"),
    _rule(Intent.UNSUPPORTED, "invoice_document",
          r"\b(?:factura|invoice|bill|recibo)\b(?: \S+){0,3} (?:en |in |as )?(?:pdf|fisica)\b"),
)
_BILL_CHANGE = _rule(
    Intent.BILL_CHANGE, "bill_change",
    r"\b(?:mas (?:alta|cara|elevada|alto|caro)|subio|aumento|incremento|salio mas|"
    r"me cobraron mas|pago mas)\b",
    r"\bpor que\b.{0,40}\b(?:mas|tanto)\b",
    r"\b(?:higher|more expensive|went up|increased?)\b",
    r"\bwhy\b.{0,40}\b(?:more|so much)\b",
)
_PERSONAL = (
    _rule(Intent.LAST_PAYMENT, "last_payment",
          r"\b(?:ultimo pago|mi pago|pague|recibieron (?:mi )?pago|llego (?:mi )?pago|"
          r"registraron (?:mi )?pago)\b",
          r"\b(?:last payment|my payment|i paid|did you (?:get|receive) (?:my )?payment)\b"),
    _rule(Intent.INVOICES, "invoices",
          r"\b(?:mis facturas|ultimas? facturas?|facturas (?:pendientes|vencidas|anteriores)|"
          r"historial de facturas|mi factura|mi recibo)\b",
          r"\b(?:my (?:invoices|bills|invoice|bill)|(?:last|latest|recent) (?:invoice|bill)s?|"
          r"(?:unpaid|overdue) (?:invoices|bills))\b"),
    _rule(Intent.BALANCE, "balance",
          r"\b(?:saldo|cuanto debo|que debo|lo que debo|debo algo|deuda|estado de cuenta|"
          r"monto a pagar|cuanto (?:tengo|hay) que pagar)\b",
          r"\b(?:balance|how much do i owe|what do i owe|do i owe|amount due|outstanding)\b"),
    _rule(Intent.PLAN, "plan",
          r"\b(?:mi plan|que plan tengo|plan (?:tengo|contratado)|mi velocidad|"
          r"cuantos megas tengo)\b",
          r"\b(?:my plan|which plan do i have|what plan (?:do i have|am i on)|my speed|"
          r"my subscription)\b"),
)
_HOW_TO = _rule(
    Intent.POLICY, None,
    r"\b(?:como (?:puedo|hago|se|cambio|pago|funciona)|que pasa si|que sucede si)\b",
    r"\b(?:how (?:do|can|does|to)|what happens if)\b",
)
_GREETING = re.compile(
    r"\W*(?:(?:hola|buenas|buenos dias|buenas tardes|buenas noches|saludos|gracias|muchas gracias|"
    r"ok|okay|listo|perfecto|hi|hello|hey|good morning|good afternoon|thanks|thank you)\W*)+"
)
_SINGLE_INVOICE = re.compile(
    r"\b(?:ultima factura|mi factura|mi recibo|my (?:invoice|bill)|(?:last|latest) (?:invoice|bill))\b"
)
_OVERDUE = re.compile(r"\b(?:vencidas|overdue)\b")


def _invoices_params(text: str) -> dict[str, Any]:
    params: dict[str, Any] = {"limit": 1 if _SINGLE_INVOICE.search(text) else 6}
    if _OVERDUE.search(text):
        params["status"] = "overdue"
    return params


def route(message: str, identifiers: Sequence[Identifier] = ()) -> Route:
    """Route one message; `identifiers` are the ones already found in it."""
    text = fold(message)
    for rule in (*_UNSUPPORTED, _BILL_CHANGE):
        match = rule.pattern.search(text)
        if match:
            return Route(rule.intent, rule.capability, {}, match[0])
    invoices = [i for i in identifiers if i.kind is IdentifierKind.INVOICE]
    if invoices:
        return Route(Intent.INVOICE, "invoice_by_number", {}, invoices[0].literal)
    for rule in (_HOW_TO, *_PERSONAL):
        match = rule.pattern.search(text)
        if match:
            params = _invoices_params(text) if rule.intent is Intent.INVOICES else {}
            return Route(rule.intent, rule.capability, params, match[0])
    if _GREETING.fullmatch(text):
        return Route(Intent.GREETING, None, {}, text)
    return Route(Intent.POLICY, None)
