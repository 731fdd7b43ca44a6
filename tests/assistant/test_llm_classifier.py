"""The chat-completions intent classifier, against a mocked endpoint (respx).

The model's structured answer routes the turn; anything else — a timeout, a 5xx, a body that
is not a chat completion, JSON that breaks the schema, a doubtful answer — leaves the decision
to the local model, and a request for a person never waits on the model at all.
"""

from __future__ import annotations

import json
import logging

import httpx
import pytest
import respx

from billing_toolkit.assistant.narrator.chat_completions import ChatCompletionsConfig
from billing_toolkit.assistant.runtime import (
    AssistantConfig,
    build_intent_classifier,
    open_assistant,
)
from billing_toolkit.assistant.turn.intents import route
from billing_toolkit.assistant.understanding.classifier import IntentPrediction, prediction_from
from billing_toolkit.assistant.understanding.labels import IntentLabel
from billing_toolkit.assistant.understanding.llm_classifier import (
    DEFAULT_INTENT_TIMEOUT_SECONDS,
    ChatCompletionsIntentClassifier,
)
from billing_toolkit.assistant.understanding.models import default_classifier, intent_model
from billing_toolkit.assistant.vocabulary.escalation import EscalationReason
from billing_toolkit.assistant.vocabulary.intents import Intent
from tests.assistant.assistant_fakes import MARIA_PHONE, FakeRetriever, PipelineFactory

BASE = "http://127.0.0.1:11434/v1"
URL = f"{BASE}/chat/completions"
ENV = {"ASSISTANT_LLM_BASE_URL": BASE, "ASSISTANT_LLM_MODEL": "qwen2.5:7b"}
VAGUE = "oye y lo mio como va, cuanto es que es"


class StubModel:
    """The local model, reduced to one fixed answer so a fallback is visible."""

    name = "stub"

    def __init__(self, label: IntentLabel = IntentLabel.POLICY, p: float = 0.9) -> None:
        self.answer = prediction_from({label: p})
        self.seen: list[str] = []

    def classify(self, message: str) -> IntentPrediction:
        self.seen.append(message)
        return self.answer


def completion(content: object, **message: object) -> dict[str, object]:
    text = content if isinstance(content, str) or content is None else json.dumps(content)
    return {"choices": [{"message": {"role": "assistant", "content": text, **message}}]}


def answering(intent: str, confidence: float = 0.93) -> httpx.Response:
    return httpx.Response(200, json=completion({"intent": intent, "confidence": confidence}))


def classifier(local: StubModel | None = None, **env: str) -> ChatCompletionsIntentClassifier:
    return ChatCompletionsIntentClassifier.from_env({**ENV, **env}, fallback=local or StubModel())


@respx.mock
def test_a_structured_answer_names_the_intent_and_routes_the_message() -> None:
    respx.post(URL).mock(return_value=answering("balance"))
    chosen = classifier()
    prediction = chosen.classify(VAGUE)
    assert (prediction.label, prediction.confidence) == (IntentLabel.BALANCE, 0.93)
    assert route(VAGUE, classifier=chosen).intent is Intent.BALANCE


@respx.mock
def test_the_pipeline_answers_what_the_model_understood(make_pipeline: PipelineFactory) -> None:
    respx.post(URL).mock(return_value=answering("cancellation"))
    pipeline = make_pipeline(classifier=classifier())
    result = pipeline.handle(MARIA_PHONE, "ya no quiero seguir con ustedes")
    assert result.reason is EscalationReason.CAPABILITY_MISSING
    assert "Quiere: cancelar el servicio" in result.agent_summary.es  # type: ignore[union-attr]


@respx.mock
def test_the_request_carries_the_schema_the_labels_and_no_personal_identifier() -> None:
    call = respx.post(URL).mock(return_value=answering("balance"))
    classifier(ASSISTANT_LLM_API_KEY="sk-test").classify(
        "mi cedula es V-12.345.678, cuenta 1000004821, tel 0412-1234567: y la INV-2026-008263?"
    )
    request = call.calls.last.request
    body = json.loads(request.content)
    assert request.headers["Authorization"] == "Bearer sk-test"
    assert (body["model"], body["temperature"]) == ("qwen2.5:7b", 0)
    assert body["response_format"]["type"] == "json_schema"
    schema = body["response_format"]["json_schema"]
    assert schema["strict"] is True
    assert schema["schema"]["required"] == ["intent", "confidence"]
    assert schema["schema"]["additionalProperties"] is False
    labels = [label.value for label in IntentLabel]
    assert schema["schema"]["properties"]["intent"]["enum"] == labels
    system, user = body["messages"]
    assert all(f"- {label.value}: " in system["content"] for label in IntentLabel)
    sent = user["content"]
    for personal in ("12.345.678", "12345678", "1000004821", "1234567"):
        assert personal not in sent
    assert "INV-2026-008263" in sent, "an invoice number is not personal and names the intent"


FAILURES = {
    "HTTP 503": httpx.Response(503, json={"error": "overloaded"}),
    "HTTP 401": httpx.Response(401, json={"error": "bad key"}),
    "not JSON": httpx.Response(200, text="<html>gateway</html>"),
    "no choices": httpx.Response(200, json={"choices": []}),
    "message not an object": httpx.Response(200, json={"choices": [{"message": "balance"}]}),
    "refusal": httpx.Response(200, json=completion(None, refusal="I can't help")),
    "content null": httpx.Response(200, json=completion(None)),
    "prose instead of JSON": httpx.Response(200, json=completion("The intent is balance.")),
    "JSON list": httpx.Response(200, json=completion([{"intent": "balance"}])),
    "unknown label": answering("refund"),
    "label in other case": answering("BALANCE"),
    "missing confidence": httpx.Response(200, json=completion({"intent": "balance"})),
    "extra key": httpx.Response(
        200, json=completion({"intent": "balance", "confidence": 0.9, "reason": "owes"})
    ),
    "confidence above 1": answering("balance", 1.5),
    "negative confidence": answering("balance", -0.1),
    "confidence as text": httpx.Response(
        200, json=completion({"intent": "balance", "confidence": "0.9"})
    ),
    "confidence as bool": httpx.Response(
        200, json=completion({"intent": "balance", "confidence": True})
    ),
    "NaN confidence": httpx.Response(
        200, json=completion('{"intent": "balance", "confidence": NaN}')
    ),
    "doubtful answer": answering("balance", 0.35),
}


@pytest.mark.parametrize("response", FAILURES.values(), ids=FAILURES.keys())
@respx.mock
def test_anything_but_a_confident_valid_answer_leaves_it_to_the_local_model(
    response: httpx.Response, caplog: pytest.LogCaptureFixture
) -> None:
    respx.post(URL).mock(return_value=response)
    local = StubModel(IntentLabel.PAYMENT_METHODS, 0.8)
    with caplog.at_level(logging.WARNING):
        assert classifier(local).classify(VAGUE + " V-12345678") is local.answer
    assert "12345678" not in caplog.text and "lo mio" not in caplog.text


@pytest.mark.parametrize(
    "error",
    [httpx.ReadTimeout("slow"), httpx.ConnectTimeout("down"), httpx.ConnectError("refused")],
    ids=type,
)
@respx.mock
def test_a_timeout_or_unreachable_endpoint_leaves_it_to_the_local_model(
    error: httpx.HTTPError,
) -> None:
    respx.post(URL).mock(side_effect=error)
    local = StubModel(IntentLabel.BALANCE)
    assert classifier(local).classify(VAGUE) is local.answer


@pytest.mark.parametrize(
    "message",
    ["quiero hablar con un asesor", "no quiero hablar con un bot", "can a human call me?"],
)
@respx.mock
def test_a_request_for_a_person_found_by_the_rules_wins_without_asking_the_model(
    message: str,
) -> None:
    call = respx.post(URL).mock(return_value=answering("balance", 1.0))
    prediction = classifier().classify(message)
    assert prediction.label is IntentLabel.PERSON
    assert not call.called


@respx.mock
def test_the_local_model_naming_a_person_wins_over_the_remote_one() -> None:
    call = respx.post(URL).mock(return_value=answering("balance", 1.0))
    local = StubModel(IntentLabel.PERSON, 0.7)
    assert classifier(local).classify("oiga pero alguien que me explique bien") is local.answer
    assert not call.called


@respx.mock
def test_answers_are_remembered_and_a_failure_is_retried_on_a_later_turn() -> None:
    call = respx.post(URL).mock(
        side_effect=[
            answering("balance"),
            httpx.Response(503),
            answering("greeting"),
            answering("due_date"),
        ]
    )
    chosen = classifier(StubModel(IntentLabel.POLICY))
    assert chosen.classify(VAGUE).label is IntentLabel.BALANCE
    assert chosen.classify(VAGUE).label is IntentLabel.BALANCE, "same turn, same answer"
    assert chosen.classify("y pa cuando es").label is IntentLabel.POLICY  # 503: local
    assert chosen.classify("y pa cuando es").label is IntentLabel.POLICY, "no second wait"
    assert chosen.classify(VAGUE).label is IntentLabel.BALANCE
    assert call.call_count == 2
    chosen.classify("buenas")  # a later message: the endpoint is asked again, and answers
    assert chosen.classify("y pa cuando es").label is IntentLabel.DUE_DATE
    assert call.call_count == 4


class TestConfiguration:
    def test_the_narrators_endpoint_with_a_shorter_timeout(self) -> None:
        chosen = classifier()
        assert chosen.name == "chat-completions:qwen2.5:7b"
        assert chosen._config == ChatCompletionsConfig(
            BASE, "qwen2.5:7b", None, DEFAULT_INTENT_TIMEOUT_SECONDS
        )
        assert classifier(ASSISTANT_INTENT_LLM_TIMEOUT="1.5")._config.timeout_seconds == 1.5

    @pytest.mark.parametrize(
        ("env", "message"),
        [
            ({"ASSISTANT_LLM_BASE_URL": ""}, "set ASSISTANT_LLM_BASE_URL"),
            ({"ASSISTANT_LLM_MODEL": ""}, "set ASSISTANT_LLM_MODEL"),
            (
                {"ASSISTANT_INTENT_LLM_TIMEOUT": "soon"},
                "ASSISTANT_INTENT_LLM_TIMEOUT must be a number",
            ),
            (
                {"ASSISTANT_INTENT_LLM_TIMEOUT": "0"},
                "ASSISTANT_INTENT_LLM_TIMEOUT must be a positive",
            ),
            (
                {"ASSISTANT_INTENT_LLM_TIMEOUT": "inf"},
                "ASSISTANT_INTENT_LLM_TIMEOUT must be a positive",
            ),
        ],
    )
    def test_a_missing_or_bad_setting_is_named(self, env: dict[str, str], message: str) -> None:
        with pytest.raises(ValueError, match=message):
            classifier(None, **env)

    @pytest.mark.parametrize(
        ("raw", "enabled"),
        [(None, False), ("", False), ("0", False), ("1", True), ("true", True), ("YES", True)],
    )
    def test_the_opt_in_is_read_from_the_environment(self, raw: str | None, enabled: bool) -> None:
        env = {} if raw is None else {"ASSISTANT_INTENT_LLM": raw}
        assert AssistantConfig.from_env(env).intent_llm is enabled

    def test_a_mistyped_opt_in_is_an_error_naming_it(self) -> None:
        with pytest.raises(ValueError, match="ASSISTANT_INTENT_LLM must be 1 or 0"):
            AssistantConfig.from_env({"ASSISTANT_INTENT_LLM": "si"})

    def test_without_the_opt_in_the_pipeline_keeps_the_trained_model(self) -> None:
        assert build_intent_classifier(AssistantConfig()) is default_classifier()

    def test_opted_in_the_trained_model_the_config_names_is_the_fallback(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        for name, value in ENV.items():
            monkeypatch.setenv(name, value)
        built = build_intent_classifier(AssistantConfig(intent_model="ngram", intent_llm=True))
        assert isinstance(built, ChatCompletionsIntentClassifier)
        assert built._fallback is intent_model("ngram")
        built.close()

    def test_opted_in_the_assistant_is_built_with_it(
        self, monkeypatch: pytest.MonkeyPatch, any_store: object
    ) -> None:
        for name, value in ENV.items():
            monkeypatch.setenv(name, value)
        config = AssistantConfig(base_url="http://billing.test", api_key="k", intent_llm=True)
        with open_assistant(config, retriever=FakeRetriever(), store=any_store) as assistant:  # type: ignore[arg-type]
            assert isinstance(assistant.pipeline.classifier, ChatCompletionsIntentClassifier)

    def test_opted_in_without_an_endpoint_refuses_to_build(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        for name in ENV:
            monkeypatch.delenv(name, raising=False)
        with pytest.raises(ValueError, match="set ASSISTANT_LLM_BASE_URL"):
            open_assistant(
                AssistantConfig(base_url="http://billing.test", api_key="k", intent_llm=True),
                retriever=FakeRetriever(),
            )
