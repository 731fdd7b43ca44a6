"""Promises the bot cannot keep, in Spanish and English: such a reply goes to a person.

The bot can state what the billing system says; it cannot approve a refund, waive a charge,
guarantee an outcome, declare a service restored or threaten legal action — only a person at
the operator can, and a subscriber will hold the operator to whatever the bot wrote. Policy
facts in the knowledge base ("el servicio se reconecta dentro de 24 horas tras el pago") are
not promises and do not match: the patterns look for the commitment ("tu servicio ya fue
reconectado", "te devolveremos"). Bias: a reply that reads like a commitment escalates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from billing_toolkit.assistant.text.folding import fold


class PromiseKind(StrEnum):
    REFUND = "refund"
    WAIVER = "waiver"
    GUARANTEE = "guarantee"
    SERVICE_RESTORED = "service_restored"
    LEGAL_THREAT = "legal_threat"


@dataclass(frozen=True, slots=True)
class ForbiddenPhrase:
    kind: PromiseKind
    phrase: str


_CHARGE_ES = r"(?:cargo|cobro|recargo|mora|multa|deuda|factura|monto|comision)"
_CHARGE_EN = r"(?:charge|fee|late fee|penalty|debt|invoice|bill|amount)"
_PATTERNS: tuple[tuple[PromiseKind, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern))
    for kind, pattern in (
        (
            PromiseKind.REFUND,
            (
                r"\b(?:te|le|les) (?:devolvemos|devolveremos|devolvere|reembolsamos|reembolsaremos|"
                r"reintegramos|reintegraremos)\b"
            ),
        ),
        (
            PromiseKind.REFUND,
            (
                r"\b(?:reembolso|devolucion|reintegro) (?:ya )?(?:esta |fue |ha sido )?"
                r"(?:aprobad[oa]|procesad[oa]|confirmad[oa]|garantizad[oa])\b"
            ),
        ),
        (
            PromiseKind.REFUND,
            (
                r"\b(?:we(?:'ll| will)? (?:refund|reimburse)|(?:your )?refund (?:has been|is|was) "
                r"(?:approved|processed|issued|confirmed)|you will (?:get|receive) (?:a|your) refund)\b"
            ),
        ),
        (
            PromiseKind.WAIVER,
            (
                rf"\b(?:exoneramos|exoneraremos|anulamos|anularemos|eliminamos|eliminaremos|"
                rf"condonamos|condonaremos|perdonamos|perdonaremos|quitamos|quitaremos)"
                rf"(?: \S+){{0,2}} {_CHARGE_ES}\b"
            ),
        ),
        (
            PromiseKind.WAIVER,
            (
                rf"\b{_CHARGE_ES} (?:ya )?(?:esta |fue |ha sido |queda )?"
                rf"(?:exonerad[oa]|anulad[oa]|eliminad[oa]|condonad[oa]|perdonad[oa])\b"
            ),
        ),
        (
            PromiseKind.WAIVER,
            (
                rf"\b(?:we(?:'ll| will| have)? (?:waive|waived|cancel|cancelled|remove|removed|forgive)"
                rf"(?: \S+){{0,2}} {_CHARGE_EN}|{_CHARGE_EN} (?:has been|is|was) "
                rf"(?:waived|cancelled|canceled|removed|forgiven))\b"
            ),
        ),
        (
            PromiseKind.GUARANTEE,
            r"\b(?:te|le|les|se lo|se la) (?:garantizo|garantizamos|aseguro|prometo|prometemos)\b",
        ),
        (PromiseKind.GUARANTEE, r"\b(?:i|we) (?:guarantee|promise)\b|\bguaranteed\b"),
        (
            PromiseKind.SERVICE_RESTORED,
            (
                r"\b(?:tu|su) (?:servicio|internet|conexion) (?:ya )?(?:esta|fue|ha sido|quedo) "
                r"(?:restablecid[oa]|reactivad[oa]|reconectad[oa]|restaurad[oa])\b"
            ),
        ),
        (
            PromiseKind.SERVICE_RESTORED,
            r"\b(?:ya (?:tienes|tiene) (?:servicio|internet|conexion))\b",
        ),
        (
            PromiseKind.SERVICE_RESTORED,
            (
                r"\b(?:your )?(?:service|internet|connection) (?:has been|is now|was) "
                r"(?:restored|reactivated|reconnected|back)\b"
            ),
        ),
        (
            PromiseKind.LEGAL_THREAT,
            (
                r"\b(?:demanda(?:remos|r)?|acciones? legal(?:es)?|abogad[oa]s?|tribunal(?:es)?|"
                r"denuncia(?:remos|r)?|cobranza judicial|via judicial)\b"
            ),
        ),
        (
            PromiseKind.LEGAL_THREAT,
            (
                r"\b(?:legal action|lawsuit|sue you|we will sue|lawyers?|attorneys?|court|"
                r"collections agency)\b"
            ),
        ),
    )
)


def find_forbidden_phrases(reply: str) -> list[ForbiddenPhrase]:
    """Every promise the bot must not make in `reply` (empty when the reply is safe)."""
    text = fold(reply)
    return [
        ForbiddenPhrase(kind, match[0])
        for kind, pattern in _PATTERNS
        for match in pattern.finditer(text)
    ]
