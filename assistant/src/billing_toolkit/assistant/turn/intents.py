"""Intent routing: which capability, knowledge or hand-over answers a message.

The main signal is the intent classifier (`understanding/`, trained and measured on held-out
templates); keyword rules stay only as high-precision overrides, tried first:

1. an action the bot cannot perform, said in so many words ("quiero cambiar mi plan",
   "cancel my service", "reportar un pago", an invoice as PDF, data usage) → UNSUPPORTED
   (escalated CAPABILITY_MISSING with what they want);
2. an invoice number in the message → INVOICE (the number is a hard constraint), or
   BILL_CHANGE when the model reads "why is it higher";
3. a message of courtesy words only → GREETING or THANKS;
4. otherwise the model's label — when it reads a greeting or thanks, the label of the
   message without the courtesy around it, if that is a confident question ("hola buenas,
   ¿cuánto debo?" is a balance question; "hello there" stays a greeting), when its probability reaches `MIN_CONFIDENCE`; below it the
   message is a POLICY question, answered from the knowledge base or escalated NO_CONTEXT.

Several intents in one message ("cuanto debo y como pago") are routed clause by clause
(`route_parts`): each clause that lands on a different confident intent becomes a part of the
reply. Requests for a person are decided before routing (`understanding/person_request.py`).

Bias: a low-confidence reading is a knowledge-base question, never a guess at the
subscriber's data; an action request always reaches a person.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.text.identifiers import Identifier, IdentifierKind
from billing_toolkit.assistant.understanding.classifier import IntentClassifier, IntentPrediction
from billing_toolkit.assistant.understanding.keyword_classifier import (
    ACTIONS,
    BILL_INCREASE,
    short_courtesy,
    without_courtesy,
)
from billing_toolkit.assistant.understanding.labels import IntentLabel
from billing_toolkit.assistant.understanding.models import default_classifier
from billing_toolkit.assistant.understanding.segments import split_clauses
from billing_toolkit.assistant.vocabulary.intents import Intent

MIN_CONFIDENCE = 0.30
"""Below this probability the model's best label is not trusted: the message is a policy
question (retrieval decides, or NO_CONTEXT)."""


PERSONAL_INTENTS = frozenset(
    {
        Intent.BALANCE,
        Intent.INVOICES,
        Intent.INVOICE,
        Intent.LAST_PAYMENT,
        Intent.PLAN,
        Intent.BILL_CHANGE,
        Intent.SERVICE,
    }
)
"""Intents answered from the subscriber's own record: only for a proven identity."""


@dataclass(frozen=True, slots=True)
class Route:
    """Where a message goes: the intent, the capability to call and its keyword arguments.

    `cue` says what decided (a rule's phrase, or `model:<label> p=…`; None for the default);
    `topic` is added to the knowledge-base query (the suspension policy for "no tengo
    internet"), `wants` names what an UNSUPPORTED request asks for, for the agent.
    """

    intent: Intent
    capability: str | None
    params: Mapping[str, Any] = field(default_factory=dict)
    cue: str | None = None
    topic: str | None = None
    wants: str | None = None


@dataclass(frozen=True, slots=True)
class RoutedPart:
    """One clause of a message and its route."""

    text: str
    route: Route


_WANTS = {
    IntentLabel.CANCELLATION: ("cancel_service", "cancelar el servicio / cancel the service"),
    IntentLabel.PLAN_CHANGE: ("change_plan", "cambiar de plan / change plan"),
    IntentLabel.PAYMENT_REPORT: ("record_payment", "reportar un pago / report a payment"),
}
_OTHER_ACTIONS = (
    (
        "usage",
        "consumo de datos / data usage",
        re.compile(
            r"\bconsumo de (?:datos|internet)\b|\bcuantos (?:gb|gigas|megas) (?:he )?(?:usado|gastado)"
            r"|\b(?:data usage|how much data)\b"
        ),
    ),
    (
        "invoice_document",
        "factura en PDF o física / invoice as a document",
        re.compile(
            r"\b(?:factura|invoice|bill|recibo)\b(?: \S+){0,3} (?:en |in |as )?(?:pdf|fisica)\b"
        ),
    ),
)
_TOPICS = {
    IntentLabel.SERVICE_DOWN: "suspensión y reconexión del servicio suspension reconnection",
    IntentLabel.PAYMENT_METHODS: "métodos de pago payment methods",
    IntentLabel.LATE_FEES: "recargo por mora late fee",
    IntentLabel.EXCHANGE_RATE: "tasa de cambio exchange rate bolívares",
}
_SINGLE_INVOICE = re.compile(
    r"\b(?:ultima factura|mi factura|mi recibo|my (?:invoice|bill)|(?:last|latest) (?:invoice|bill))\b"
)
_OVERDUE = re.compile(r"\b(?:vencidas|overdue|pendientes|unpaid)\b")


def _invoices_params(text: str, *, single: bool = False) -> dict[str, Any]:
    params: dict[str, Any] = {"limit": 1 if single or _SINGLE_INVOICE.search(text) else 6}
    if _OVERDUE.search(text):
        params["status"] = "overdue"
    return params


def _unsupported(capability: str, wants: str, cue: str) -> Route:
    return Route(Intent.UNSUPPORTED, capability, {}, cue, wants=wants)


def _from_label(prediction: IntentPrediction, text: str) -> Route:
    label, cue = prediction.label, f"model:{prediction.label.value} p={prediction.confidence:.2f}"
    if prediction.confidence < MIN_CONFIDENCE:
        return Route(Intent.POLICY, None, {}, None)
    if label in _WANTS:
        return _unsupported(*_WANTS[label], cue)
    simple: dict[IntentLabel, tuple[Intent, str | None]] = {
        IntentLabel.BALANCE: (Intent.BALANCE, "balance"),
        IntentLabel.DUE_DATE: (Intent.BALANCE, "balance"),
        IntentLabel.LAST_PAYMENT: (Intent.LAST_PAYMENT, "last_payment"),
        IntentLabel.PLAN: (Intent.PLAN, "plan"),
        IntentLabel.BILL_INCREASE: (Intent.BILL_CHANGE, "bill_change"),
        IntentLabel.SERVICE_DOWN: (Intent.SERVICE, "plan"),
        IntentLabel.GREETING: (Intent.GREETING, None),
        IntentLabel.THANKS: (Intent.THANKS, None),
        IntentLabel.OFF_TOPIC: (Intent.OFF_TOPIC, None),
    }
    if label in simple:
        intent, capability = simple[label]
        return Route(intent, capability, {}, cue, _TOPICS.get(label))
    if label in (IntentLabel.INVOICE_LIST, IntentLabel.INVOICE):
        # "invoice" without a number in the message: the latest one.
        return Route(
            Intent.INVOICES,
            "invoices",
            _invoices_params(text, single=label is IntentLabel.INVOICE),
            cue,
        )
    return Route(Intent.POLICY, None, {}, cue, _TOPICS.get(label))


def route(
    message: str,
    identifiers: Sequence[Identifier] = (),
    *,
    classifier: IntentClassifier | None = None,
) -> Route:
    """Route one message (or clause); `identifiers` are the ones already found in it."""
    text = fold(message)
    for label, pattern in ACTIONS:
        match = pattern.search(text)
        if match:
            return _unsupported(*_WANTS[label], match[0])
    for capability, wants, pattern in _OTHER_ACTIONS:
        match = pattern.search(text)
        if match:
            return _unsupported(capability, wants, match[0])
    prediction = _beyond_courtesy(classifier, message, text)
    invoices = [i for i in identifiers if i.kind is IdentifierKind.INVOICE]
    if invoices:
        if BILL_INCREASE.search(text) or (
            prediction is not None and prediction.label is IntentLabel.BILL_INCREASE
        ):
            return Route(Intent.BILL_CHANGE, "bill_change", {}, invoices[0].literal)
        return Route(Intent.INVOICE, "invoice_by_number", {}, invoices[0].literal)
    courtesy = short_courtesy(text)
    if courtesy is not None:
        return Route(
            Intent.GREETING if courtesy is IntentLabel.GREETING else Intent.THANKS, None, {}, text
        )
    if prediction is None:
        return Route(Intent.POLICY, None)
    return _from_label(prediction, text)


_COURTESY_LABELS = frozenset({IntentLabel.GREETING, IntentLabel.THANKS})


def _beyond_courtesy(
    classifier: IntentClassifier | None, message: str, text: str
) -> IntentPrediction | None:
    """The model's reading of `message`, looking past a greeting or thanks around it."""
    prediction = _classify(classifier, message)
    core = without_courtesy(text)
    if prediction is None or prediction.label not in _COURTESY_LABELS or core in ("", text):
        return prediction
    inner = _classify(classifier, core)
    if (
        inner is not None
        and inner.label not in _COURTESY_LABELS
        and inner.confidence >= MIN_CONFIDENCE
    ):
        return inner
    return prediction


def _classify(classifier: IntentClassifier | None, message: str) -> IntentPrediction | None:
    if classifier is None:
        classifier = default_classifier()
    return classifier.classify(message)


_IDENTIFIER_STATEMENT = re.compile(
    r"^(?:y |and |,)?\s*(?:mi |my |el |la |the |este es |this is )?(?:numero de |number of )?"
    r"(?:cuenta|cedula|cedula de identidad|rif|telefono|numero|account|id|national id|phone|"
    r"factura|invoice)(?: number| de cuenta)?\s*(?:es|is|:|=)?\s*$"
)


def states_identifier(clause: str, identifiers: Sequence[Identifier]) -> bool:
    """Whether `clause` only says which account, ID or invoice it is about ("mi cuenta es
    1000004821", "my ID: V-12345678"): context for the other clauses, not a question of its
    own — read alone, its digits look like a payment reference."""
    text = clause
    for identifier in identifiers:
        text = text.replace(identifier.literal, " ")
    return bool(_IDENTIFIER_STATEMENT.match(" ".join(fold(text).split())))


_ANSWERABLE_TOGETHER = frozenset(
    {
        Intent.BALANCE,
        Intent.INVOICES,
        Intent.LAST_PAYMENT,
        Intent.PLAN,
        Intent.BILL_CHANGE,
        Intent.SERVICE,
        Intent.POLICY,
        Intent.UNSUPPORTED,
        Intent.INVOICE,
    }
)


def route_parts(
    message: str,
    identifiers: Sequence[Identifier] = (),
    *,
    classifier: IntentClassifier | None = None,
) -> list[RoutedPart]:
    """The message's parts: one per clause that asks something different, in order.

    A message is split only when at least two clauses land on different answerable intents
    with a cue (a rule or a confident model); otherwise it is one part, routed whole.
    """
    whole = RoutedPart(message, route(message, identifiers, classifier=classifier))
    clauses = split_clauses(message)
    if len(clauses) < 2:
        return [whole]
    parts: list[RoutedPart] = []
    for clause in clauses:
        own = [i for i in identifiers if i.literal in clause]
        if own and states_identifier(clause, own):
            continue
        routed = route(clause, own, classifier=classifier)
        if routed.cue is None or routed.intent not in _ANSWERABLE_TOGETHER:
            continue
        if all((p.route.intent, p.route.topic) != (routed.intent, routed.topic) for p in parts):
            parts.append(RoutedPart(clause, routed))
    return parts if len(parts) >= 2 else [whole]
