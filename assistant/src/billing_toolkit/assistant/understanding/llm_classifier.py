"""The intent classifier interface over an OpenAI-compatible chat-completions model.

An operator with a model at hand (Ollama, vLLM, OpenAI) may let it name the intent: it reads
paraphrases no template set foresaw. It is asked for structured output — JSON with one label
from the enum of `IntentLabel` and a confidence in [0, 1] — and the answer is validated
strictly (unknown label, extra key, a confidence that is not a number in range: rejected).

Bias: when in doubt, the local model decides. Any failure — timeout, transport error, non-2xx,
a malformed body, a refusal, JSON that does not match the schema — and any answer below
`MIN_LLM_CONFIDENCE` falls back to the trained classifier, so the assistant never routes
worse than without the model. A request for a person found locally (the keyword rules, or the
trained model naming `person`; see `understanding/person_request.py`) wins before the model is
asked, so a hand-over never waits on, or is overruled by, a remote call.

Privacy: the message is sent with every phone, national ID and account number masked
(`text/masking.py`); the label does not depend on their digits and the provider has no need
to see them. The model's answers are remembered per message (bounded), since one turn
classifies the same text more than once (person check, routing).

Configuration: `ASSISTANT_INTENT_LLM=1` opts in (runtime.py); the endpoint, model and key
are the narrator's `ASSISTANT_LLM_BASE_URL`, `ASSISTANT_LLM_MODEL`, `ASSISTANT_LLM_API_KEY`;
`ASSISTANT_INTENT_LLM_TIMEOUT` (seconds, default 5) bounds the wait, shorter than a
narration's because a turn waits on it before anything else.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import replace

import httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from billing_toolkit.assistant.narrator.chat_completions import (
    ChatCompletionsConfig,
    ChatCompletionsError,
    complete,
    json_schema_format,
)
from billing_toolkit.assistant.text.masking import mask_personal
from billing_toolkit.assistant.understanding.classifier import (
    IntentClassifier,
    IntentPrediction,
    prediction_from,
)
from billing_toolkit.assistant.understanding.labels import IntentLabel
from billing_toolkit.assistant.understanding.models import default_classifier
from billing_toolkit.assistant.understanding.person_request import asks_for_person

ENV_INTENT_TIMEOUT = "ASSISTANT_INTENT_LLM_TIMEOUT"
DEFAULT_INTENT_TIMEOUT_SECONDS = 5.0
MIN_LLM_CONFIDENCE = 0.5
"""Below this the model is in doubt, and the local model decides."""
CACHE_SIZE = 256
_log = logging.getLogger(__name__)

LABEL_MEANINGS: Mapping[IntentLabel, str] = {
    IntentLabel.PERSON: "wants a human agent, a call back, a manager or supervisor, or "
    "refuses to talk to a bot",
    IntentLabel.SERVICE_DOWN: "internet or service not working, cut off, suspended",
    IntentLabel.CANCELLATION: "wants to cancel or terminate the service or contract",
    IntentLabel.PLAN_CHANGE: "wants to change, upgrade or downgrade the plan",
    IntentLabel.PAYMENT_REPORT: "reports a payment already made (reference, amount)",
    IntentLabel.PAYMENT_METHODS: "asks how or where to pay",
    IntentLabel.BALANCE: "asks how much they owe, their balance, debt or overdue amount",
    IntentLabel.INVOICE_LIST: "asks for their invoices or bills",
    IntentLabel.INVOICE: "asks about one specific invoice (by its number)",
    IntentLabel.BILL_INCREASE: "asks why the bill went up or is higher",
    IntentLabel.DUE_DATE: "asks when a payment is due",
    IntentLabel.LATE_FEES: "asks about late fees or surcharges",
    IntentLabel.EXCHANGE_RATE: "asks about the exchange rate or bolivar amounts",
    IntentLabel.GREETING: "only a greeting",
    IntentLabel.THANKS: "thanks, goodbye or closing",
    IntentLabel.OFF_TOPIC: "nothing to do with the internet service or its billing",
    IntentLabel.LAST_PAYMENT: "asks whether their last payment arrived",
    IntentLabel.PLAN: "asks which plan or speed they have",
    IntentLabel.POLICY: "any other question about the provider's rules or procedures",
}

INTENT_SCHEMA: Mapping[str, object] = {
    "type": "object",
    "properties": {
        "intent": {
            "type": "string",
            "enum": [label.value for label in IntentLabel],
            "description": "The one label that best names what the message asks.",
        },
        "confidence": {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "description": "How sure you are of the label, from 0 to 1.",
        },
    },
    "required": ["intent", "confidence"],
    "additionalProperties": False,
}

_SYSTEM_PROMPT = """\
You classify WhatsApp messages that subscribers of an internet provider in Venezuela send to
its billing assistant. They write Spanish or English, with typos, no accents, slang and mixed
languages. Name the ONE label that best says what the message asks for:
{labels}
Identifiers may appear masked (digits replaced by *); that does not change the label.
Respond with JSON: {{"intent": "<label>", "confidence": <0..1>}}."""


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    intent: IntentLabel = Field(strict=False)
    confidence: float = Field(ge=0.0, le=1.0, allow_inf_nan=False)


def build_payload(message: str, model: str) -> dict[str, object]:
    """The chat-completions body for one message (masked; deterministic: temperature 0)."""
    labels = "\n".join(f"- {label.value}: {LABEL_MEANINGS[label]}" for label in IntentLabel)
    return {
        "model": model,
        "temperature": 0,
        "messages": [
            {"role": "system", "content": _SYSTEM_PROMPT.format(labels=labels)},
            {"role": "user", "content": mask_personal(message)},
        ],
        "response_format": json_schema_format("intent", INTENT_SCHEMA),
    }


def parse_answer(content: str) -> IntentPrediction:
    """The prediction in the model's content; raises ValueError when it breaks the schema."""
    try:
        answer = _Answer.model_validate(json.loads(content))
    except (json.JSONDecodeError, ValidationError) as exc:
        raise ValueError(f"the intent answer does not match the schema: {exc}") from exc
    return prediction_from({answer.intent: answer.confidence})


def intent_timeout(environ: Mapping[str, str]) -> float:
    """`ASSISTANT_INTENT_LLM_TIMEOUT` in seconds; raises ValueError naming it when bad."""
    raw = environ.get(ENV_INTENT_TIMEOUT) or str(DEFAULT_INTENT_TIMEOUT_SECONDS)
    try:
        seconds = float(raw)
    except ValueError:
        raise ValueError(f"{ENV_INTENT_TIMEOUT} must be a number of seconds") from None
    if not 0 < seconds < float("inf"):
        raise ValueError(f"{ENV_INTENT_TIMEOUT} must be a positive number of seconds")
    return seconds


class ChatCompletionsIntentClassifier:
    """Intent by a chat-completions model, the trained classifier as fallback and guard."""

    def __init__(
        self,
        config: ChatCompletionsConfig,
        *,
        fallback: IntentClassifier | None = None,
        http: httpx.Client | None = None,
    ) -> None:
        self.name = f"chat-completions:{config.model}"
        self._config = config
        self._fallback = fallback or default_classifier()
        self._http = http or httpx.Client(timeout=config.timeout_seconds)
        self._answers: OrderedDict[str, IntentPrediction] = OrderedDict()
        self._failed: str | None = None
        self._lock = threading.Lock()

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, *, fallback: IntentClassifier | None = None
    ) -> ChatCompletionsIntentClassifier:
        """Configured by the narrator's `ASSISTANT_LLM_*` and `ASSISTANT_INTENT_LLM_TIMEOUT`;
        raises ValueError naming a missing or bad variable."""
        env = os.environ if environ is None else environ
        config = replace(ChatCompletionsConfig.from_env(env), timeout_seconds=intent_timeout(env))
        return cls(config, fallback=fallback)

    def close(self) -> None:
        self._http.close()

    def classify(self, message: str) -> IntentPrediction:
        local = self._fallback.classify(message)
        if asks_for_person(message, self._fallback) is not None:
            return (
                local
                if local.label is IntentLabel.PERSON
                else prediction_from({IntentLabel.PERSON: 1.0})
            )
        answer = self._ask(message)
        if answer is None or answer.confidence < MIN_LLM_CONFIDENCE:
            return local
        return answer

    def _ask(self, message: str) -> IntentPrediction | None:
        """The model's answer, or None when it gave none usable. Answers are remembered
        (bounded); a failure only for the message that failed, so a turn waits on a dead
        endpoint once, and a passing blip does not pin common messages to the fallback."""
        with self._lock:
            if message == self._failed:
                return None
            if message in self._answers:
                self._answers.move_to_end(message)
                return self._answers[message]
        try:
            answer = parse_answer(
                complete(self._http, self._config, build_payload(message, self._config.model))
            )
        except (ChatCompletionsError, ValueError) as exc:
            _log.warning(
                "intent model unusable (%s); the local model decides",
                type(exc.__cause__ or exc).__name__,
            )
            with self._lock:
                self._failed = message
            return None
        with self._lock:
            self._failed = None
            self._answers[message] = answer
            while len(self._answers) > CACHE_SIZE:
                self._answers.popitem(last=False)
        return answer
