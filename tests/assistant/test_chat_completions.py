"""The OpenAI-compatible chat-completions narrator, against a mocked endpoint (respx)."""

from __future__ import annotations

import json

import httpx
import pytest
import respx

from billing_toolkit.assistant.narrator import (
    ChatCompletionsConfig,
    ChatCompletionsNarrator,
    EvidenceChunk,
    NarrationError,
    NarrationRequest,
)
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.vocabulary.intents import Intent
from billing_toolkit.client.tool_result import ToolResult

BASE = "http://127.0.0.1:11434/v1"
ENV = {"ASSISTANT_LLM_BASE_URL": BASE + "/", "ASSISTANT_LLM_MODEL": "qwen2.5:7b"}
REQUEST = NarrationRequest(
    question="¿Cuánto es la mora y cuánto debo?",
    language=Language.SPANISH,
    intent=Intent.BALANCE,
    customer={"name": "María"},
    tool_results=(
        ToolResult("balance", True, "amount due USD 45.00", {}),
        ToolResult("plan", True, None, {}),
    ),
    chunks=(EvidenceChunk("es-late-fee", "La mora es del 5%.", "es"),),
)


def completion(content: object, **message: object) -> dict[str, object]:
    text = content if isinstance(content, str) else json.dumps(content)
    return {"choices": [{"message": {"role": "assistant", "content": text, **message}}]}


@pytest.fixture
def narrator() -> ChatCompletionsNarrator:
    return ChatCompletionsNarrator.from_env(ENV)


@respx.mock
def test_the_structured_reply_and_its_citations_come_back(
    narrator: ChatCompletionsNarrator,
) -> None:
    route = respx.post(f"{BASE}/chat/completions").mock(
        return_value=httpx.Response(
            200, json=completion({"reply": "Debes USD 45,00.", "used_chunk_ids": ["es-late-fee"]})
        )
    )
    narration = narrator.narrate(REQUEST)
    assert (narration.reply, narration.used_chunk_ids) == ("Debes USD 45,00.", ("es-late-fee",))
    body = json.loads(route.calls.last.request.content)
    assert body["model"] == "qwen2.5:7b"
    assert body["temperature"] == 0
    schema = body["response_format"]["json_schema"]
    assert body["response_format"]["type"] == "json_schema"
    assert schema["strict"] is True
    assert schema["schema"]["required"] == ["reply", "used_chunk_ids"]
    system, user = body["messages"]
    assert "Spanish (Venezuela)" in system["content"]
    assert "- [balance] amount due USD 45.00" in user["content"]
    assert "- [es-late-fee] La mora es del 5%." in user["content"]
    assert "- [customer] name: María" in user["content"]
    assert "Authorization" not in route.calls.last.request.headers


@respx.mock
def test_the_api_key_is_sent_as_a_bearer_token() -> None:
    route = respx.post(f"{BASE}/chat/completions").mock(
        return_value=httpx.Response(200, json=completion({"reply": "ok", "used_chunk_ids": []}))
    )
    ChatCompletionsNarrator.from_env({**ENV, "ASSISTANT_LLM_API_KEY": "sk-test"}).narrate(REQUEST)
    assert route.calls.last.request.headers["Authorization"] == "Bearer sk-test"


@respx.mock
def test_english_and_empty_evidence_are_said_plainly(narrator: ChatCompletionsNarrator) -> None:
    route = respx.post(f"{BASE}/chat/completions").mock(
        return_value=httpx.Response(200, json=completion({"reply": "ok", "used_chunk_ids": []}))
    )
    narrator.narrate(NarrationRequest("hi", Language.ENGLISH, Intent.POLICY, None, (), ()))
    system, user = json.loads(route.calls.last.request.content)["messages"]
    assert "Reply in English" in system["content"]
    assert user["content"].count("- (none)") == 2


@pytest.mark.parametrize(
    ("response", "message"),
    [
        (httpx.Response(503, json={"error": "overloaded"}), "HTTP 503"),
        (httpx.Response(200, text="not json"), "request failed"),
        (httpx.Response(200, json={"choices": []}), "malformed"),
        (httpx.Response(200, json={"choices": [{"message": "text"}]}), "malformed"),
        (httpx.Response(200, json=completion("", refusal="I can't help with that")), "refused"),
        (httpx.Response(200, json=completion("Debes USD 45,00")), "does not match the schema"),
        (httpx.Response(200, json=completion({"reply": "x"})), "does not match the schema"),
        (
            httpx.Response(
                200, json=completion({"reply": "x", "used_chunk_ids": [], "confidence": 1})
            ),
            "does not match the schema",
        ),
    ],
)
@respx.mock
def test_anything_but_a_valid_structured_reply_is_a_narration_error(
    narrator: ChatCompletionsNarrator, response: httpx.Response, message: str
) -> None:
    respx.post(f"{BASE}/chat/completions").mock(return_value=response)
    with pytest.raises(NarrationError, match=message):
        narrator.narrate(REQUEST)


@respx.mock
def test_a_timeout_is_a_narration_error(narrator: ChatCompletionsNarrator) -> None:
    respx.post(f"{BASE}/chat/completions").mock(side_effect=httpx.ReadTimeout("slow"))
    with pytest.raises(NarrationError, match="ReadTimeout"):
        narrator.narrate(REQUEST)


class TestConfig:
    def test_read_from_the_environment(self) -> None:
        config = ChatCompletionsConfig.from_env({**ENV, "ASSISTANT_LLM_TIMEOUT": "5"})
        assert config == ChatCompletionsConfig(BASE, "qwen2.5:7b", None, 5.0)

    def test_missing_settings_are_named(self) -> None:
        with pytest.raises(ValueError, match="set ASSISTANT_LLM_BASE_URL and ASSISTANT_LLM_MODEL"):
            ChatCompletionsConfig.from_env({})

    def test_a_bad_timeout_is_named(self) -> None:
        with pytest.raises(ValueError, match="ASSISTANT_LLM_TIMEOUT must be a number"):
            ChatCompletionsConfig.from_env({**ENV, "ASSISTANT_LLM_TIMEOUT": "soon"})

    def test_the_process_environment_is_the_default(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("ASSISTANT_LLM_BASE_URL", BASE)
        monkeypatch.setenv("ASSISTANT_LLM_MODEL", "gpt-4o-mini")
        assert ChatCompletionsConfig.from_env().model == "gpt-4o-mini"
