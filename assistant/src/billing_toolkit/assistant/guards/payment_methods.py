"""How a payment was made, said of a payment, must be how the evidence says it was made.

"Pagaste con Pago Móvil" of a payment the billing system recorded `by cash` has no figure
for the figure check to stop, yet it is a wrong statement about the subscriber's money (and
sends them looking for a Pago Móvil that never happened). So a method the reply says a
payment was made by — after "pagaste con/por", "tu pago fue por", "you paid by", "your
payment was made with", or in brackets after a payment's id ("PAY-… por USD 32,48
(efectivo)") — must be the method of a payment or payment report in the evidence
(`by cash`, `Payment report …: pago_movil VES …`). Only evidence that names a method is read
this way: with none, nothing is checked. How one *can* pay ("puedes pagar por Pago Móvil")
is the policy's, not a payment's, and is not read here. Bias: when a method is said of a
payment, it must be one the evidence gives.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from billing_toolkit.assistant.guards.record_binding import sentences
from billing_toolkit.assistant.text.folding import fold

_METHODS = {
    "pago_movil": r"pago ?movil|mobile payment",
    "bank_transfer": r"transferencia(?: bancaria)?|(?:bank |wire )?transfer|deposito|deposit",
    "zelle": r"zelle",
    "cash": r"efectivo|cash",
    "card": r"tarjeta(?: de (?:debito|credito))?(?: en (?:el |un )?punto de venta)?|punto de venta"
    r"|(?:debit |credit )?card(?: at (?:a|the) point of sale)?|pos",
}
"""The contract's `PaymentMethod` values and how a reply names each."""
_ANY_METHOD = "|".join(f"(?P<{value}>{words})" for value, words in _METHODS.items())
_SAID_OF_A_PAYMENT = (
    re.compile(
        r"\b(?:pagaste|abonaste|cancelaste|lo pagaste|la pagaste|(?:tu|el|ese|este) (?:ultimo )?"
        r"pago(?: anterior)?|you paid|(?:your|the|that|this) (?:last |previous )?payment)\b"
        r"(?: (?!(?:y|o|and|or|pero|but)\b)[^\s,;:.]+){0,5}? "
        r"(?:con|por|via|mediante|by|with|through|using)(?: (?:un|una|el|la|a|an))? "
        rf"(?:{_ANY_METHOD})\b"
    ),
    re.compile(rf"\b(?P<payment>pay-\d+)\b(?:[^.;]|\.(?=\d)|(?<=bs)\.)*?\((?:{_ANY_METHOD})\)"),
)
"""A method said of a payment: after the payment's words and "con"/"por"/"by"/"with", or in
brackets after its id."""
_PAYMENT_METHOD = re.compile(r"\b(PAY-\d+) of (?:USD|VES) \S+ by (\w+)")
"""`client.evidence.payment_evidence`: "PAY-… of USD 40.00 by transfer"."""
_EVIDENCE_METHOD = re.compile(
    r"\bby (pago_movil|bank_transfer|zelle|cash|card)\b"
    r"|\bPayment report \S+ for account \S+: (pago_movil|bank_transfer|zelle) "
)


def evidence_methods(evidence_texts: Sequence[str]) -> frozenset[str]:
    """Every payment method the evidence records a payment or a report was made by."""
    return frozenset(
        match[1] or match[2] for text in evidence_texts for match in _EVIDENCE_METHOD.finditer(text)
    )


def unsupported_methods(answer: str, evidence_texts: Sequence[str]) -> tuple[str, ...]:
    """The methods `answer` says a payment was made by that no payment of the evidence was
    made by — or, said of a payment by its id, that this payment was not made by — as
    written (folded: "pago movil")."""
    known = evidence_methods(evidence_texts)
    if not known:
        return ()
    by_id = {
        match[1].lower(): match[2]
        for text in evidence_texts
        for match in _PAYMENT_METHOD.finditer(text)
    }
    failed = []
    for sentence in sentences(answer):
        for pattern in _SAID_OF_A_PAYMENT:
            for match in pattern.finditer(fold(sentence)):
                payment = match.groupdict().get("payment")
                allowed = {by_id[payment]} if payment in by_id else known
                if not any(match[value] for value in allowed):
                    failed.append(next(match[value] for value in _METHODS if match[value]))
    return tuple(dict.fromkeys(failed))
