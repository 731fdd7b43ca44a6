"""Intent understanding: the utterance set, its split, the trained model and the report."""

from __future__ import annotations

from collections import Counter

import pytest

from billing_toolkit.assistant.text.identifiers import find_identifiers
from billing_toolkit.assistant.turn.intents import route_parts
from billing_toolkit.assistant.understanding.keyword_classifier import KeywordClassifier
from billing_toolkit.assistant.understanding.labels import IntentLabel
from billing_toolkit.assistant.understanding.models import default_classifier, intent_model
from billing_toolkit.assistant.understanding.ngram_classifier import NgramClassifier
from billing_toolkit.assistant.understanding.person_request import asks_for_person
from billing_toolkit.assistant.understanding.report import measure
from billing_toolkit.assistant.understanding.utterances import (
    UtteranceSetError,
    expand,
    load_utterances,
    parse_utterances,
)
from billing_toolkit.assistant.vocabulary.intents import Intent


def test_every_intent_has_at_least_forty_utterances_and_held_out_templates() -> None:
    rows = load_utterances().rows
    totals = Counter(row.label for row in rows)
    tests = Counter(row.label for row in rows if row.split == "test")
    for label in IntentLabel:
        assert totals[label] >= 40, label
        assert tests[label] > 0, label


def test_the_split_is_by_template_not_by_row() -> None:
    rows = load_utterances()
    assert not {r.template for r in rows.train} & {r.template for r in rows.test}
    assert not {r.text for r in rows.train} & {r.text for r in rows.test}


def test_expansion_is_deterministic_and_bounded() -> None:
    template = "{a|b|c} {x|y|z}"
    assert expand(template, 4) == expand(template, 4)
    assert len(expand(template, 4)) == 4 and expand(template, 1) == ["a x"]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "intents"),
        ({"intents": {"nope": {"train": ["x"]}}}, "unknown intent"),
        ({"intents": {"person": {"dev": ["x"]}}}, "train"),
        ({"intents": {"person": {"train": [""]}}}, "must be text"),
        ({"max_per_template": 0, "intents": {}}, "positive"),
    ],
)
def test_a_malformed_utterance_file_is_named(document: object, message: str) -> None:
    with pytest.raises(UtteranceSetError, match=message):
        parse_utterances(document)


def test_training_twice_gives_the_same_predictions() -> None:
    train = load_utterances().train
    again = NgramClassifier(train)
    for row in load_utterances().test[:40]:
        assert again.classify(row.text).scores == intent_model("ngram").classify(row.text).scores


def test_training_needs_two_labels() -> None:
    rows = [r for r in load_utterances().train if r.label is IntentLabel.PERSON]
    with pytest.raises(ValueError, match="two labels"):
        NgramClassifier(rows)


def test_the_person_request_bar_holds_on_held_out_templates() -> None:
    report = measure(default_classifier())
    assert report.person_recall == 1.0, report.missed_person
    assert report.false_handover_rate <= 0.02, report.false_handovers


def test_the_model_beats_the_keyword_router_on_held_out_templates() -> None:
    assert measure(default_classifier()).accuracy > measure(KeywordClassifier()).accuracy + 0.2


@pytest.mark.parametrize(
    "message",
    [
        "no quiero hablar con un bot",
        "I don't want to talk to a machine",
        "is there a real person I can talk to?",
        "¿me atiende una persona de verdad?",
        "can a human call me?",
        "let me speak to your manager",
        "quiero que me llame alguien",
        "necesito poner un reclamo con un supervisor",
    ],
)
def test_the_issue_requests_for_a_person_hand_over(message: str) -> None:
    assert asks_for_person(message, default_classifier())


@pytest.mark.parametrize(
    "message",
    [
        "¿cuánto debo?",
        "¿cómo pago con pago móvil?",
        "mis facturas",
        "what plans do you offer?",
        "¿cuántas personas pueden conectarse?",
        "agente autorizado de pago",
    ],
)
def test_clean_questions_do_not_hand_over(message: str) -> None:
    assert asks_for_person(message, default_classifier()) is None


@pytest.mark.parametrize(
    ("message", "intents"),
    [
        ("no tengo internet", [Intent.SERVICE]),
        ("por qué me cortaron el internet", [Intent.SERVICE]),
        ("quiero cancelar mi plan", [Intent.UNSUPPORTED]),
        ("ya hice un pago móvil, referencia 123456, por 46,40", [Intent.PAYMENT_REPORT]),
        ("¿cuánto tengo vencido en total?", [Intent.BALANCE]),
        ("now that my service is cancelled, do I still owe anything?", [Intent.BALANCE]),
        ("cuanto debo y como pago", [Intent.BALANCE, Intent.POLICY]),
        ("gracias", [Intent.THANKS]),
        ("¿cuál es la capital de Francia?", [Intent.OFF_TOPIC]),
    ],
)
def test_the_issue_messages_route_where_they_should(message: str, intents: list[Intent]) -> None:
    parts = route_parts(message, find_identifiers(message))
    assert [p.route.intent for p in parts] == intents


@pytest.mark.parametrize(
    ("message", "intent"),
    [
        ("hola buenas, cuanto debo?", Intent.BALANCE),
        ("buenos días! ¿qué plan tengo?", Intent.PLAN),
        ("hey, why is my bill higher this month? thanks", Intent.BILL_CHANGE),
        ("ok gracias, y cuando fue mi ultimo pago", Intent.LAST_PAYMENT),
        ("hola", Intent.GREETING),
        ("hello there", Intent.GREETING),
        ("buenas buenas, qué tal", Intent.GREETING),
        ("listo, muchas gracias", Intent.THANKS),
    ],
)
def test_courtesy_around_a_question_does_not_outvote_it(message: str, intent: Intent) -> None:
    assert [p.route.intent for p in route_parts(message)] == [intent]


@pytest.mark.parametrize(
    ("message", "intents"),
    [
        ("mi cuenta es 1000004821 y mi cédula V-12345678, ¿cuánto debo?", [Intent.BALANCE]),
        ("my account is 1000004821. how much do I owe?", [Intent.BALANCE]),
        ("mi número de cuenta: 1000004821; ¿qué plan tengo?", [Intent.PLAN]),
    ],
)
def test_a_clause_that_only_names_the_account_is_context_not_a_question(
    message: str, intents: list[Intent]
) -> None:
    """Read alone, "mi cuenta es 1000004821" looks like a payment reference to the model."""
    parts = route_parts(message, find_identifiers(message))
    assert [p.route.intent for p in parts] == intents


def test_a_cancellation_says_what_the_subscriber_wants() -> None:
    assert route_parts("quiero cancelar mi plan")[0].route.wants == (
        "cancelar el servicio / cancel the service"
    )
