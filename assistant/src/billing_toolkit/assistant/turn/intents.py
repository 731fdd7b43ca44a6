"""Intent routing: which capability, knowledge or hand-over answers a message.

The main signal is the intent classifier (`understanding/`, trained and measured on held-out
templates); keyword rules stay only as high-precision overrides, tried first:

0. an action named only to be denied ("no quiero darme de baja, solo…") is dropped first;
1. an action the bot cannot perform, said in so many words ("quiero cambiar mi plan",
   "cancel my service", an invoice as PDF, data usage) → UNSUPPORTED (escalated
   CAPABILITY_MISSING with what they want); "reportar un pago" → PAYMENT_REPORT, which the
   turn reads into a report and files (`turn/payment_reports.py`);
2. questions that sound like one but are answered (`_answerable`): what became of a payment
   report → REPORT_STATUS, their amount due in bolívares → DUE_IN_BOLIVARES, today's rate →
   EXCHANGE_RATE (`understanding/rate_questions.py`; *which* rate is used stays a policy
   question), a plan's price → the
   knowledge base, a scheduled plan change → PLAN, the subscriber's own arrears → `arrears`,
   the days left to pay → `balance` (its next due date and the days to it);
3. an invoice number in the message → INVOICE (the number is a hard constraint), or
   BILL_CHANGE when the model reads "why is it higher"; without one, an invoice named by its
   last digits, its month or by pointing back ("esa", when the last reply showed something)
   → INVOICE, resolved by the turn among the subscriber's own;
4. a message of courtesy words (or thumbs-up emoji) only → GREETING or THANKS;
5. otherwise the model's label — when it reads a greeting or thanks, the label of the
   message without the courtesy around it, if that is a confident question ("hola buenas,
   ¿cuánto debo?" is a balance question; "hello there" stays a greeting), when its
   probability reaches `MIN_CONFIDENCE`; below it the
   message is a POLICY question, answered from the knowledge base or escalated NO_CONTEXT.

Several intents in one message ("cuanto debo y como pago", "1) saldo 2) mora") are routed
clause by clause (`route_parts`): each clause that lands on a different route becomes a part
of the reply, answered or named; a payment report is one such route, and the turn answers
the questions asked beside it (`questions_besides_a_report`). Complaints and requests for a
person are decided before routing (`understanding/complaint.py`,
`understanding/person_request.py`).

Bias: a low-confidence reading is a knowledge-base question, never a guess at the
subscriber's data; an action request always reaches a person.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.text.identifiers import Identifier, IdentifierKind
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.understanding.classifier import IntentClassifier, IntentPrediction
from billing_toolkit.assistant.understanding.keyword_classifier import (
    ACTIONS,
    BILL_INCREASE,
    short_courtesy,
    without_courtesy,
)
from billing_toolkit.assistant.understanding.labels import IntentLabel
from billing_toolkit.assistant.understanding.models import default_classifier
from billing_toolkit.assistant.understanding.partial_identifiers import suffix_asked
from billing_toolkit.assistant.understanding.periods import (
    PeriodAsked,
    compared_periods,
    follow_up_period,
    payment_period_asked,
    period_asked,
)
from billing_toolkit.assistant.understanding.rate_questions import (
    asks_due_in_bolivares,
    asks_overdue_in_bolivares,
    asks_todays_rate,
)
from billing_toolkit.assistant.understanding.referring import (
    Pointer,
    follow_up_text,
    names_invoice,
    pointer_in,
)
from billing_toolkit.assistant.understanding.report_status_questions import asks_report_status
from billing_toolkit.assistant.understanding.segments import split_clauses, split_items
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
        Intent.DUE_IN_BOLIVARES,
        Intent.PAYMENT_REPORT,
        Intent.REPORT_STATUS,
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
}
REPORTING = Route(Intent.PAYMENT_REPORT, "report_payment", {}, "reports a payment")
"""A payment reported (or one to report): read into a report by the turn."""
STATUS_OF_THE_REPORT = Route(Intent.REPORT_STATUS, "latest_payment_report", {}, "report status")
"""What became of a payment report: the account's newest report's status."""
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
    IntentLabel.SERVICE_DOWN: "suspensión y reconexión del servicio|suspension reconnection",
    IntentLabel.PAYMENT_METHODS: "métodos de pago|payment methods",
    IntentLabel.LATE_FEES: "recargo por mora|late fee",
    IntentLabel.EXCHANGE_RATE: "tasa de cambio bolívares|exchange rate bolívares",
}
"""Words added to a policy question's KB query, Spanish|English: only the reply's language's
are added (`topic_words`) — both, and the other language's chunks crowd the answer out."""


def topic_words(topic: str, language: Language) -> str:
    """The words of `topic` ("español|english") for a reply in `language`."""
    spanish, _, english = topic.partition("|")
    return english if language is Language.ENGLISH and english else spanish


_SINGLE_INVOICE = re.compile(
    r"\b(?:ultima factura|mi factura|mi recibo|my (?:invoice|bill)|(?:last|latest) (?:invoice|bill))\b"
)
_COMPARING = re.compile(
    r"\b(?:vs|versus|compar\w*|frente a|con respecto a|en relacion (?:a|con))\b"
)
"""Two bills set side by side: with their months named, a comparison (`_bill_change_named`)."""
_OVERDUE = re.compile(r"\b(?:vencidas|overdue|pendientes|unpaid)\b")


_DENIED_ACTION = re.compile(
    r"\b(?:no (?:quiero|deseo|pienso|voy a|necesito|me interesa|estoy pidiendo)|"
    r"(?:i|i'm|im) (?:don't|dont|do not|am not|not) (?:want|wish|need|going|trying|asking) to|"
    r"i'm not (?:going|trying|asking) to|i won't)\b(?: \S+){0,2}? "
    r"(?:cancelar(?:lo)?|dar(?:me|lo)? de baja|cambiar(?: de| mi| el)? plan|reportar|"
    r"cancel|terminate|close|change (?:my |the )?plan)\b[^,.;?!]*"
)
"""An action named only to be denied ("no quiero…", "I don't want to…"), up to the end of
its clause. Only a refusal of one's own will: "no puedo reportar el pago en la app" asks a
person to do it, and stays a request."""
_COURTESY_SYMBOLS = re.compile(r"[\s!.]*(?:[👍👌🙏🙌✅😊🙂🤝👏💯]\ufe0f?[\s!.]*)+")
"""A message of thumbs-up and smiles only: a thank-you, answered with a closing."""
_PLAN_PRICE = re.compile(
    r"\b(?:cuanto (?:cuesta|cuestan|vale|valen|sale|salen|es|son)|precio|precios|tarifa|"
    r"how much (?:is|are|does|do)|price|prices|cost)\b(?: \S+){0,4} "
    r"(?:plan(?:es|s)?|(?:fibra|hogar) \d+|\d+ ?(?:megas|mbps|mb))\b"
    r"|\b(?:plan(?:es|s)?|(?:fibra|hogar) \d+)\b(?: \S+){0,4} "
    r"(?:cuesta|cuestan|vale|valen|precio|cost|costs|price)\b"
)
"""A plan's price: "plan" itself, a catalogue name ("el fibra 300", "hogar 60") or a speed
("el de 100 megas")."""
_ARREARS = re.compile(
    r"\b(?:cuanto (?:llevo|tengo|debo|va) (?:de )?(?:la |mi |en )?(?:mora|atraso)|"
    r"mi (?:mora|recargo|atraso)|(?:dias|tiempo) (?:de atraso|de mora|vencid[oa]s?|atrasad[oa])|"
    r"cuantos dias (?:llevo|tengo|van) (?:vencid|atrasad|de atraso|sin pagar|de mora)\w*|"
    r"how (?:many days|long) (?:overdue|late|past due|have i been (?:late|overdue))|"
    r"days (?:overdue|late|past due)|my late fees?|how much is my late fee|"
    r"(?:mora|recargo|atraso) (?:que|q) (?:tengo|llevo|debo|me (?:cobraron|pusieron))|"
    r"late fee (?:i|that i) (?:have|owe)|"
    r"desde cuando (?:estoy|esta|estan|tengo|llevo)(?: \S+){0,2} (?:vencid|atrasad|mora|sin pagar)\w*|"
    r"since when (?:am i|have i been|is it|has it been) (?:overdue|late|past due))"
)
_DAYS_LEFT = re.compile(
    r"\b(?:cuantos dias|cuanto tiempo) (?:me )?(?:quedan?|tengo|faltan?)(?: \S+){0,2} "
    r"(?:pa|para|pra) (?:pagar|cancelar)\b|\bhasta cuando (?:tengo|puedo) (?:pa |para )?pagar\b"
    r"|\bhow (?:many days|long|much time) (?:do i have|have i got|is left|are left)"
    r"(?: left)? (?:to pay|before)"
)
"""Days left to pay ("cuántos días me quedan pa pagar"): the balance's next due date and the
days to it, computed in the evidence — not the payment-methods article the words suggest.
"Cancelar" here is paying (Venezuelan usage), not ending the service."""
_WHEN_DUE = re.compile(
    r"\bcuando (?:se )?vence\b|\bcuando (?:tengo|debo|hay) que pagar\b|\bfecha (?:de vencimiento|"
    r"limite(?: de pago)?|de corte|de pago)\b|\bhasta cuando (?:tengo|puedo|hay)\b"
    r"|\bwhen (?:is|does) (?:it|my \w+|the \w+|this|that) (?:due|have to be paid)\b"
    r"|\bwhen do i (?:have|need) to pay\b|\bdue date\b|\bpayment deadline\b"
)
"""When the subscriber's money is due ("¿cuándo vence?", "fecha límite de pago", "when is my
bill due?"), after an invoice by number or month had its turn: the balance's next due date
— and, when something is overdue, when that fell due (`pipeline._due_date`)."""
_HYPOTHETICAL = re.compile(
    r"\b(?:si (?:pago|no pago|me atraso|me retraso)|if i (?:pay|don't|do not))\b"
)
""""¿Cuánto es la mora si pago tarde?" asks the policy, not the subscriber's arrears."""
_PENDING_CHANGE = re.compile(
    r"\b(?:cambio de plan|plan change|change of plan)\b(?: \S+){0,4} "
    r"(?:programado|pendiente|agendado|quedo|aplicado|listo|scheduled|pending|done|in place)\b"
    r"|\b(?:ya )?(?:quedo|se hizo|se aplico|esta|estara)"
    r"(?: (?:programado|agendado|listo|hecho|aplicado|registrado))? (?:el |mi )?cambio de plan\b"
)


_PLAN_TABLE_TERMS = "plan código velocidad precio mensual|plan code speed monthly price mbps"
"""Added to a plan-price question's KB query: the words of the plans table's header, so the
table ranks above the plan-change articles that also say "plan"."""


def _denied_object(denial: re.Match[str]) -> str:
    """What is left of a denied action: its plan, when it names one — "no voy a cambiar de
    plan, solo quiero saber cuál tengo" asks which plan they have, and without the word the
    rest ("cuál tengo") reads as a balance question."""
    return " plan " if re.search(r"\bplan\b", denial[0]) else " "


def _denied_only(clause: str) -> bool:
    """ "no quiero darme de baja": a clause that only denies an action asks nothing."""
    return not _DENIED_ACTION.sub(" ", fold(clause)).strip(" ,.;")


def _answerable(text: str) -> Route | None:
    """Questions answered from the record or the KB that the model sends elsewhere: a
    plan's price (the plans article, not a plan change), whether a plan change is in place
    (the subscription's scheduled change), the subscriber's own arrears ("cuánto es mi
    mora", computed by the `arrears` capability rather than quoted from the policy), the
    days left to pay (computed into the balance's evidence); a payment report's status, the
    amount due in bolívares and today's rate, from the billing API."""
    if asks_report_status(text):
        return STATUS_OF_THE_REPORT
    if asks_overdue_in_bolivares(text):
        return Route(
            Intent.DUE_IN_BOLIVARES, "exchange_rate", {"overdue": True}, "overdue in bolívares"
        )
    if asks_due_in_bolivares(text):
        return Route(Intent.DUE_IN_BOLIVARES, "exchange_rate", {}, "amount due in bolívares")
    if asks_todays_rate(text):
        return Route(Intent.EXCHANGE_RATE, "exchange_rate", {}, "today's rate")
    if _ARREARS.search(text) and not _HYPOTHETICAL.search(text):
        return Route(Intent.BALANCE, "arrears", {}, "arrears")
    if _DAYS_LEFT.search(text):
        return Route(Intent.BALANCE, "due_date", {}, "days left to pay")
    if _PENDING_CHANGE.search(text):
        return Route(Intent.PLAN, "plan", {}, "pending plan change")
    match = _PLAN_PRICE.search(text)
    if match:
        return Route(Intent.POLICY, None, {}, match[0], _PLAN_TABLE_TERMS)
    return None


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
    if label is IntentLabel.PAYMENT_REPORT:
        return replace(REPORTING, cue=cue)
    if label in _WANTS:
        return _unsupported(*_WANTS[label], cue)
    simple: dict[IntentLabel, tuple[Intent, str | None]] = {
        IntentLabel.BALANCE: (Intent.BALANCE, "balance"),
        IntentLabel.DUE_DATE: (Intent.BALANCE, "due_date"),
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
    pointing: frozenset[str] = frozenset(),
) -> Route:
    """Route one message (or clause); `identifiers` are the ones already found in it.
    `pointing`: the kinds of what the last reply showed that a follow-up may point back to
    ("esa"; `"invoice"`, `"payment"`…), empty when nothing is live."""
    text = fold(message)
    if _DENIED_ACTION.search(text):
        # "no quiero darme de baja, solo dime cuánto debo": the model reads the rest.
        if _denied_only(text):
            return Route(Intent.POLICY, None)
        message = text = " ".join(_DENIED_ACTION.sub(_denied_object, text).split()).strip(" ,.;")
    for label, pattern in ACTIONS:
        match = pattern.search(text)
        if match:
            if label is IntentLabel.PAYMENT_REPORT:
                return replace(REPORTING, cue=match[0])
            return _unsupported(*_WANTS[label], match[0])
    for capability, wants, pattern in _OTHER_ACTIONS:
        match = pattern.search(text)
        if match:
            return _unsupported(capability, wants, match[0])
    # "ok thanks, and the rate?": the rules read the question inside the courtesy too.
    core = without_courtesy(text)
    answerable = _answerable(text) or (_answerable(core) if core not in ("", text) else None)
    if answerable is not None:
        return answerable
    invoices = [i for i in identifiers if i.kind is IdentifierKind.INVOICE]
    named = None if invoices else _invoice_named(message, text) or _pointed(message, pointing)
    if named is not None:
        return named
    prediction = _beyond_courtesy(classifier, message, text)
    if invoices:
        if BILL_INCREASE.search(text) or (
            prediction is not None and prediction.label is IntentLabel.BILL_INCREASE
        ):
            return Route(Intent.BILL_CHANGE, "bill_change", {}, invoices[0].literal)
        return Route(Intent.INVOICE, "invoice_by_number", {}, invoices[0].literal)
    if _WHEN_DUE.search(text) and not _HYPOTHETICAL.search(text):
        return Route(Intent.BALANCE, "due_date", {}, "when it is due")
    courtesy = short_courtesy(text) or (
        IntentLabel.THANKS if _COURTESY_SYMBOLS.fullmatch(message.strip()) else None
    )
    if courtesy is not None:
        return Route(
            Intent.GREETING if courtesy is IntentLabel.GREETING else Intent.THANKS, None, {}, text
        )
    if prediction is None:
        return Route(Intent.POLICY, None)
    return _from_label(prediction, text)


def _invoice_named(message: str, text: str) -> Route | None:
    """One of the subscriber's invoices named by its last digits or its month ("la que
    termina en 4410", "el recibo de julio"), or a payment by the month it was made in
    ("¿cuánto pagué en agosto?"): resolved among their own by the turn. A bill that went up,
    or two set side by side, with its month or digits named ("¿por qué subió la de
    octubre?", "octubre vs septiembre") is that comparison (`_bill_change_named`); without
    them it is left to the model."""
    if BILL_INCREASE.search(text):
        return _bill_change_named(message)
    compared = _bill_change_named(message) if _COMPARING.search(text) else None
    if compared is not None and payment_period_asked(message) is None:
        return compared
    suffix = suffix_asked(message)
    if suffix is not None:
        return Route(Intent.INVOICE, "invoices", {"suffix": suffix}, f"ends in {suffix}")
    period = period_asked(message)
    if period is not None:
        return _invoice_of(period)
    paid = payment_period_asked(message)
    return _payments_of(paid) if paid is not None else None


def _bill_change_named(message: str) -> Route | None:
    """The comparison of the invoice(s) named by month or last digits, or None."""
    periods = compared_periods(message)
    if periods:
        literal = " vs ".join(p.literal for p in periods)
        return Route(Intent.BILL_CHANGE, "bill_change", {"periods": periods}, literal)
    suffix = suffix_asked(message)
    if suffix is not None:
        return Route(Intent.BILL_CHANGE, "bill_change", {"suffix": suffix}, f"ends in {suffix}")
    return None


def _invoice_of(period: PeriodAsked) -> Route:
    """The subscriber's invoice of a month, resolved among their own by the turn."""
    return Route(Intent.INVOICE, "invoices", {"period": period}, f"period {period.literal}")


def _payments_of(period: PeriodAsked) -> Route:
    """The subscriber's payments received in a month, resolved among their own by the turn."""
    return Route(Intent.LAST_PAYMENT, "payments", {"period": period}, f"paid in {period.literal}")


PAYMENT_BEFORE = Route(Intent.LAST_PAYMENT, "payments", {"before": True}, "the payment before")
"""The payment before the one shown (or before the last): "el pago anterior"."""
PAYMENT_SHOWN = Route(Intent.LAST_PAYMENT, "payments", {"shown": True}, "the payment shown")
"""The payment the last reply showed: "ese pago", "¿con qué lo pagué?"."""
PAYMENT_OF_INVOICE = Route(
    Intent.LAST_PAYMENT, "payments", {"of_invoice": True}, "the payment of the invoice shown"
)
"""The payment applied to the invoice the last reply showed: "¿cuándo la pagué?"."""
_SHORT_FOLLOW_UP = 6
"""Words at most of a follow-up read against what was shown ("¿y cuánto era?")."""
_HOW_MUCH_WAS = re.compile(
    r"^(?:y )?(?:cuanto|de cuanto) (?:era|es|fue|sale|salio|quedo)\b(?! (?:la|el|lo|mi|mis|tu|de)\b)"
    r"|^(?:and )?how much (?:was|is) (?:it|that|this)\b"
)
_ANOTHER_DAY = re.compile(
    r"^(?:y|e|and|what about|how about)(?: (?:la|el|de|del|for|on|of|the))* (?:ayer|anteayer"
    r"|antier|hoy|yesterday|today|the day before|lunes|martes|miercoles|jueves|viernes|sabado"
    r"|domingo|monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d{1,2}(?:st|nd|rd|th)?)\b"
)
"""After a rate: "¿y ayer?", "¿y la del lunes?", "and yesterday?", "¿y el 5?" — the rate of that
day (the turn reads which, `day_said`)."""
_WHEN_PAID = re.compile(
    r"\b(?:cuando|con que|como) (?:la|lo) (?:pague|pagamos|cancele|abone)\b"
    r"|\bwhen did (?:i|we) pay (?:it|that|this)(?: one| invoice| bill)?\b"
    r"|\bwhat did (?:i|we) pay (?:it|that) with\b"
)


def _pointed(message: str, pointing: frozenset[str]) -> Route | None:
    """A follow-up pointing back ("¿y qué trae esa?", "the previous one"): resolved by the
    turn against what the last reply showed. With nothing shown it still is one when it
    names an invoice ("esa factura": the turn asks which); otherwise the model reads it."""
    words = follow_up_text(message)
    short = len(words.split()) <= _SHORT_FOLLOW_UP
    if short and "invoice" in pointing and _WHEN_PAID.search(words):
        return PAYMENT_OF_INVOICE  # "¿cuándo la pagué?": the payment applied to the one shown
    if short and "rate" in pointing and _ANOTHER_DAY.search(words):
        return Route(Intent.EXCHANGE_RATE, "exchange_rate", {}, "the rate of another day")
    if short and pointing and _HOW_MUCH_WAS.search(words):
        if "invoice" in pointing:  # "¿y cuánto era?": the invoice shown, not the balance
            return Route(Intent.INVOICE, "invoices", {"pointer": Pointer.THAT}, "how much it was")
        if "payment" in pointing:
            return PAYMENT_SHOWN
    again = follow_up_period(message) if pointing else None
    if again is not None and "invoice" in pointing:  # "¿y en agosto?" after an invoice
        return _invoice_of(again)
    if again is not None and "payment" in pointing:  # … after a payment
        return _payments_of(again)
    pointer = pointer_in(message)
    if pointer is Pointer.PREVIOUS_PAYMENT:  # "el pago anterior": before the one shown, or the last
        return PAYMENT_BEFORE
    if pointer is None or not (pointing or names_invoice(message)):
        return None
    if pointer is Pointer.PREVIOUS and "payment" in pointing and "invoice" not in pointing:
        return PAYMENT_BEFORE
    if pointer is Pointer.PAYMENT and "payment" in pointing:  # the one the last reply showed
        return PAYMENT_SHOWN
    if pointer is Pointer.PAYMENT:
        return Route(Intent.LAST_PAYMENT, "last_payment", {}, "points at the payment")
    return Route(Intent.INVOICE, "invoices", {"pointer": pointer}, f"points at {pointer.value}")


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


MIN_UNSURE_WORDS = 3
"""A clause the model is unsure of is a part of its own from this many words ("y la tasa
del día?"); shorter ones ("porfa", "ok y") are filler."""

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
        Intent.OFF_TOPIC,
        Intent.EXCHANGE_RATE,
        Intent.DUE_IN_BOLIVARES,
        Intent.REPORT_STATUS,
        Intent.PAYMENT_REPORT,
    }
)
"""Routes a clause may take beside other clauses. A payment report is one: the turn reads it
from the whole message and answers the questions beside it (`questions_besides_a_report`)."""


def route_parts(
    message: str,
    identifiers: Sequence[Identifier] = (),
    *,
    classifier: IntentClassifier | None = None,
    pointing: frozenset[str] = frozenset(),
) -> list[RoutedPart]:
    """The message's parts: one per clause that asks something different, in order.

    A message is split only when at least two clauses land on different answerable routes;
    otherwise it is one part, routed whole. A clause the model is unsure of still counts
    when it has `MIN_UNSURE_WORDS` words: it is a knowledge-base question, answered or named
    in the reply ("sobre … no tengo información"), never dropped without a word. Greetings,
    thanks and hand-overs are not parts.
    """
    whole = RoutedPart(
        message, route(message, identifiers, classifier=classifier, pointing=pointing)
    )
    clauses = split_clauses(message)
    if len(clauses) < 2:
        return [whole]
    parts: list[RoutedPart] = []
    for part in _answerable_clauses(clauses, identifiers, classifier, pointing):
        if part.route.cue is None and len(part.text.split()) < MIN_UNSURE_WORDS:
            continue
        _add_new_route(parts, part)
    return parts if len(parts) >= 2 else [whole]


def questions_besides_a_report(
    message: str,
    identifiers: Sequence[Identifier] = (),
    *,
    classifier: IntentClassifier | None = None,
    pointing: frozenset[str] = frozenset(),
    of_the_report: Callable[[str], bool],
) -> list[RoutedPart]:
    """The items of a message reporting a payment that ask something else — "…banesco hoy,
    y cuánto me queda por pagar?", "…ref 0045127. what's the rate today?" — one per route,
    in order, each to be answered beside the report.

    A report is written as a list of facts ("pago móvil, ref 0045127, Bs. 1.310,40,
    banesco"), so the message is cut at every comma and conjunction (`split_items`), and an
    item counts only when it asks: a rule routes it ("¿a cómo está la tasa?", "¿ya
    verificaron el anterior?"), or it is written as a question (a "?" or "¿" around it, or a
    question word first) — routed by the model or, unsure and of `MIN_UNSURE_WORDS` words, a
    knowledge-base question answered or named. A statement ("ya pagué", "te mando el
    capture") belongs to the report whatever the model reads in it, and so does an item that
    `of_the_report` says states the report's facts (a reference, an amount, a bank).
    Bias: an item in doubt is the report's, read with it, never a question invented.
    """
    items = split_items(message)
    if len(items) < 2:
        return []
    parts: list[RoutedPart] = []
    for part in _answerable_clauses(items, identifiers, classifier, pointing):
        cue = part.route.cue
        if part.route.intent is Intent.PAYMENT_REPORT or of_the_report(part.text):
            continue
        ruled = cue is not None and not cue.startswith("model:")
        if not ruled and not _asked(part.text, message):
            continue
        if cue is None and len(part.text.split()) < MIN_UNSURE_WORDS:
            continue
        _add_new_route(parts, part)
    return parts


_QUESTION_WORD = re.compile(
    r"^(?:(?:y|e|and|pero|but|ah|ademas|tambien|also|ok|so) )*"
    r"(?:que|cuanto|cuanta|cuantos|cuantas|cuando|cual|cuales|como|donde|por que|porque|"
    r"a como|hasta cuando|me (?:dices|dice|puedes|pueden|indicas|confirmas)|"
    r"(?:quiero |quisiera |necesito )?saber|dime|digame|decime|"
    r"tell me|let me know|i (?:want|need|would like) to know|"
    r"what|whats|what's|how|when|which|where|why|is|are|do|does|did|can|could|will|has|have)\b"
)


def _asked(clause: str, message: str) -> bool:
    """Whether `clause` of `message` is written as a question: a question word first, or a
    "¿" before it or a "?" after it in the message."""
    if _QUESTION_WORD.search(fold(clause)):
        return True
    at = message.find(clause)
    return at >= 0 and (
        message[at + len(clause) :].lstrip(" ,").startswith("?")
        or message[:at].rstrip(" ,").endswith("¿")
    )


def _answerable_clauses(
    clauses: Sequence[str],
    identifiers: Sequence[Identifier],
    classifier: IntentClassifier | None,
    pointing: frozenset[str],
) -> Iterator[RoutedPart]:
    """Each clause routed on its own, when its route can be answered beside others: not one
    that only states an identifier or only denies an action."""
    for clause in clauses:
        own = [i for i in identifiers if i.literal in clause]
        if own and states_identifier(clause, own):
            continue
        routed = route(clause, own, classifier=classifier, pointing=pointing)
        if routed.intent in _ANSWERABLE_TOGETHER and not _denied_only(clause):
            yield RoutedPart(clause, routed)


def _add_new_route(parts: list[RoutedPart], part: RoutedPart) -> None:
    """`part` joins `parts` unless one of them already takes its route. The due date's
    answer is the balance's and more (`pipeline._due_date`): "¿cuánto debo y cuándo
    vence?" is one part, answered as the due date."""
    key = _route_key(part.route)
    for index, taken in enumerate(parts):
        if _route_key(taken.route) == key:
            if part.route.capability == "due_date":
                parts[index] = replace(taken, route=part.route)
            return
    parts.append(part)


def _route_key(route: Route) -> tuple[Intent, str | None, str | None]:
    capability = "balance" if route.capability == "due_date" else route.capability
    return route.intent, capability, route.topic
