"""A narrator backed by any OpenAI-compatible chat-completions endpoint (Ollama, vLLM, OpenAI).

The model gets the evidence and the question and must answer with JSON matching a schema
(`response_format: json_schema`, strict): the reply text and the ids of the chunks it used.
Structured output is what makes the citation check possible; the grounding verifier then checks
the figures — each by value, currency, and the record it is said of (`guards/grounding.py`).
The prompt *asks* the model to copy figures exactly, keep their currency, say them of their
own invoice and never compute; the pipeline does not rely on it asking nicely.

Configuration comes from the environment (never from code or files in the repository):
`ASSISTANT_LLM_BASE_URL` (e.g. `http://127.0.0.1:11434/v1` for Ollama),
`ASSISTANT_LLM_MODEL`, and `ASSISTANT_LLM_API_KEY` (optional: Ollama and vLLM need none),
`ASSISTANT_LLM_TIMEOUT` in seconds (default 20).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass

import httpx
from pydantic import BaseModel, ConfigDict, ValidationError

from billing_toolkit.assistant.narrator.base import Narration, NarrationError, NarrationRequest
from billing_toolkit.assistant.text.language import Language

ENV_BASE_URL = "ASSISTANT_LLM_BASE_URL"
ENV_MODEL = "ASSISTANT_LLM_MODEL"
ENV_API_KEY = "ASSISTANT_LLM_API_KEY"
ENV_TIMEOUT = "ASSISTANT_LLM_TIMEOUT"
DEFAULT_TIMEOUT_SECONDS = 20.0

REPLY_SCHEMA = {
    "type": "object",
    "properties": {
        "reply": {"type": "string", "description": "The WhatsApp reply to the subscriber."},
        "used_chunk_ids": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Ids of the knowledge-base chunks the reply relies on.",
        },
    },
    "required": ["reply", "used_chunk_ids"],
    "additionalProperties": False,
}

_SYSTEM_PROMPT = """\
You are the billing assistant of an internet provider in Venezuela, answering on WhatsApp.
Answer ONLY from the EVIDENCE below: billing-system results and knowledge-base chunks.
Rules:
- Copy every number, amount, date and identifier exactly as the evidence writes it. Never add,
  subtract, round, convert or estimate; if a figure is not in the evidence, do not state it.
- Amounts may be written in es-VE form (USD 45,00; Bs. 1.234,56) but keep every digit and
  the currency the evidence gives (never dollars for bolívares or the reverse).
- Say each figure and date next to the invoice, payment or plan it belongs to.
- Write dates as dates (10 de diciembre de 2026), never "mañana" or "in 3 days".
- Never promise refunds, waivers, service restoration or anything else a person must decide.
- If the evidence does not answer the question, say you will pass the conversation to an agent.
- Reply in {language}, in short plain text (no Markdown), at most a few sentences.
- List in used_chunk_ids the ids of the knowledge-base chunks you relied on, and no others.
Respond with JSON: {{"reply": "...", "used_chunk_ids": ["..."]}}."""


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reply: str
    used_chunk_ids: list[str]


@dataclass(frozen=True, slots=True)
class ChatCompletionsConfig:
    base_url: str
    model: str
    api_key: str | None = None
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ChatCompletionsConfig:
        """Read the configuration; raises ValueError naming the missing or bad variable."""
        env = os.environ if environ is None else environ
        missing = [name for name in (ENV_BASE_URL, ENV_MODEL) if not env.get(name)]
        if missing:
            raise ValueError(f"set {' and '.join(missing)} to use the chat-completions narrator")
        try:
            timeout = float(env.get(ENV_TIMEOUT) or DEFAULT_TIMEOUT_SECONDS)
        except ValueError:
            raise ValueError(f"{ENV_TIMEOUT} must be a number of seconds") from None
        return cls(
            base_url=env[ENV_BASE_URL].rstrip("/"),
            model=env[ENV_MODEL],
            api_key=env.get(ENV_API_KEY) or None,
            timeout_seconds=timeout,
        )


def _evidence_block(request: NarrationRequest) -> str:
    tools = [
        f"- [{r.capability}] {r.evidence_text}" for r in request.tool_results if r.evidence_text
    ]
    if request.customer:
        tools.insert(0, f"- [customer] name: {request.customer.get('name', '')}")
    chunks = [f"- [{c.chunk_id}] {c.text}" for c in request.chunks]
    return "\n".join(
        [
            "BILLING SYSTEM:",
            *(tools or ["- (none)"]),
            "KNOWLEDGE BASE:",
            *(chunks or ["- (none)"]),
        ]
    )


def build_payload(request: NarrationRequest, model: str) -> dict[str, object]:
    """The chat-completions request body for one narration (deterministic: temperature 0)."""
    language = "English" if request.language is Language.ENGLISH else "Spanish (Venezuela)"
    return {
        "model": model,
        "temperature": 0,
        "messages": [
            {"role": "system", "content": _SYSTEM_PROMPT.format(language=language)},
            {
                "role": "user",
                "content": f"EVIDENCE:\n{_evidence_block(request)}\n\n"
                f"QUESTION ({request.intent.value}):\n{request.question}",
            },
        ],
        "response_format": json_schema_format("grounded_reply", REPLY_SCHEMA),
    }


class ChatCompletionsError(NarrationError):
    """The endpoint gave no usable answer: transport, HTTP status, response shape or refusal."""


def json_schema_format(name: str, schema: Mapping[str, object]) -> dict[str, object]:
    """The `response_format` that asks for JSON matching `schema` (strict structured output)."""
    return {"type": "json_schema", "json_schema": {"name": name, "strict": True, "schema": schema}}


def complete(
    http: httpx.Client, config: ChatCompletionsConfig, payload: Mapping[str, object]
) -> str:
    """POST one request to `{base_url}/chat/completions`; the assistant message's content.

    Shared by every caller of the endpoint (narrator, intent classifier), which then validate
    the content against their own schema. Raises ChatCompletionsError naming what failed.
    """
    headers = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
    try:
        response = http.post(f"{config.base_url}/chat/completions", json=payload, headers=headers)
        response.raise_for_status()
        body = response.json()
    except httpx.HTTPStatusError as exc:
        raise ChatCompletionsError(
            f"chat-completions answered HTTP {exc.response.status_code}"
        ) from exc
    except (httpx.HTTPError, ValueError) as exc:
        raise ChatCompletionsError(f"chat-completions request failed: {exc!r}") from exc
    try:
        message = body["choices"][0]["message"]
        refusal, content = message.get("refusal"), message.get("content")
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        raise ChatCompletionsError(f"malformed chat-completions response: {exc!r}") from exc
    if refusal:
        raise ChatCompletionsError(f"the model refused: {refusal}")
    return content if isinstance(content, str) else ""


def _parse(content: str) -> Narration:
    try:
        parsed = _Reply.model_validate(json.loads(content))
    except (json.JSONDecodeError, ValidationError) as exc:
        raise NarrationError(f"the model's reply does not match the schema: {exc}") from exc
    return Narration(parsed.reply, tuple(parsed.used_chunk_ids))


class ChatCompletionsNarrator:
    """Narration by a model behind `POST {base_url}/chat/completions`."""

    def __init__(self, config: ChatCompletionsConfig, *, http: httpx.Client | None = None) -> None:
        self._config = config
        self._http = http or httpx.Client(timeout=config.timeout_seconds)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ChatCompletionsNarrator:
        return cls(ChatCompletionsConfig.from_env(environ))

    def narrate(self, request: NarrationRequest) -> Narration:
        return _parse(
            complete(self._http, self._config, build_payload(request, self._config.model))
        )
