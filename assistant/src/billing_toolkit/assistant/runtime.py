"""Building the assistant for one tenant from configuration: client, store, retriever, narrator.

    with open_assistant(AssistantConfig.from_env()) as assistant:
        result = assistant.pipeline.handle("+584121234567", "¿cuánto debo?")

Everything has an embedded default, so the assistant runs with nothing but a billing URL and
key: the shipped knowledge base in SQLite in memory, conversations in SQLite in memory, the
template narrator, the trained intent classifier (`ASSISTANT_INTENT_LLM=1` puts the
chat-completions model in front of it: `understanding/llm_classifier.py`).
Secrets (the billing API key, the model's key) come from the environment or
the caller, never from a file in the repository.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Self

import httpx

from billing_toolkit.assistant.knowledge.operator_profile import (
    OPERATOR_PROFILE,
    load_operator_profile,
)
from billing_toolkit.assistant.narrator import ChatCompletionsNarrator, Narrator, TemplateNarrator
from billing_toolkit.assistant.retrieval import HybridRetriever, open_retriever
from billing_toolkit.assistant.retrieval.dsn import DEFAULT_DSN
from billing_toolkit.assistant.retrieval.embedders import DEFAULT_EMBEDDER
from billing_toolkit.assistant.store import SqlConversationStore, open_conversation_store
from billing_toolkit.assistant.turn.pipeline import AssistantPipeline, PipelineSettings
from billing_toolkit.assistant.turn.ports import Retriever
from billing_toolkit.assistant.understanding.classifier import IntentClassifier
from billing_toolkit.assistant.understanding.llm_classifier import (
    ChatCompletionsIntentClassifier,
)
from billing_toolkit.assistant.understanding.models import (
    check_model_name,
    default_model_name,
    intent_model,
)
from billing_toolkit.client import BillingClient, Capabilities

ENV_TENANT = "ASSISTANT_TENANT"
ENV_KB_DSN = "BILLING_KB_DSN"
ENV_STORE_DSN = "ASSISTANT_STORE_DSN"
ENV_NARRATOR = "ASSISTANT_NARRATOR"
ENV_INTENT_LLM = "ASSISTANT_INTENT_LLM"
ENV_INTENT_MODEL = "ASSISTANT_INTENT_MODEL"
_FLAG_VALUES = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}
DEFAULT_TENANT = "fibranet"
NARRATORS = ("template", "openai")


@dataclass(frozen=True, slots=True)
class AssistantConfig:
    """Where each part of the assistant lives. `base_url`/`api_key` None: the client reads
    `BILLING_API_URL`/`BILLING_API_KEY`; `store_dsn` "" and `kb_dsn` `sqlite://` are SQLite in
    memory; `narrator` is `template` or `openai` (configured by `ASSISTANT_LLM_*`);
    `intent_model` names the trained intent model (`understanding/models.py`; "" is the one
    the held-out figures chose); `intent_llm` asks the same chat-completions model for the
    intent (the trained model stays the fallback)."""

    tenant: str = DEFAULT_TENANT
    base_url: str | None = None
    api_key: str | None = None
    kb_dsn: str = DEFAULT_DSN
    embedder: str = DEFAULT_EMBEDDER
    store_dsn: str = ""
    narrator: str = "template"
    intent_model: str = ""
    intent_llm: bool = False
    operator_profile: Path = OPERATOR_PROFILE
    settings: PipelineSettings = field(default_factory=PipelineSettings)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Self:
        """Defaults, then the environment, then `overrides` (the CLI's flags; None = unset)."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {
            "tenant": env.get(ENV_TENANT) or DEFAULT_TENANT,
            "kb_dsn": env.get(ENV_KB_DSN) or DEFAULT_DSN,
            "store_dsn": env.get(ENV_STORE_DSN) or "",
            "narrator": env.get(ENV_NARRATOR) or "template",
            "intent_model": env.get(ENV_INTENT_MODEL) or "",
            "intent_llm": _flag(env, ENV_INTENT_LLM),
        }
        values.update({key: value for key, value in overrides.items() if value is not None})
        return cls(**values)

    def __post_init__(self) -> None:
        if self.intent_model:
            try:
                check_model_name(self.intent_model)
            except ValueError as exc:
                raise ValueError(f"{ENV_INTENT_MODEL}: {exc}") from None

    @property
    def chosen_intent_model(self) -> str:
        """The trained intent model that runs; ValueError when this install cannot run it."""
        return check_model_name(self.intent_model or default_model_name())


def _flag(env: Mapping[str, str], name: str) -> bool:
    """An on/off variable (unset or empty: off); raises ValueError naming it otherwise."""
    raw = (env.get(name) or "0").strip().lower()
    if raw not in _FLAG_VALUES:
        raise ValueError(f"{name} must be 1 or 0 (true/false), got {raw!r}")
    return _FLAG_VALUES[raw]


def build_intent_classifier(config: AssistantConfig) -> IntentClassifier:
    """The trained model `config` names, behind the LLM classifier when `config` opts in;
    raises ValueError naming a missing `ASSISTANT_LLM_*` variable."""
    trained = intent_model(config.chosen_intent_model)
    if config.intent_llm:
        return ChatCompletionsIntentClassifier.from_env(fallback=trained)
    return trained


def build_narrator(name: str) -> Narrator:
    """The narrator called `name`; raises ValueError for an unknown name or missing env."""
    if name == "template":
        return TemplateNarrator()
    if name == "openai":
        return ChatCompletionsNarrator.from_env()
    raise ValueError(f"unknown narrator {name!r}: expected one of {', '.join(NARRATORS)}")


class Assistant:
    """A built pipeline and the resources it holds (closed together)."""

    def __init__(self, pipeline: AssistantPipeline, resources: ExitStack) -> None:
        self.pipeline = pipeline
        self._resources = resources

    def close(self) -> None:
        self._resources.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_retriever_for(config: AssistantConfig) -> HybridRetriever:
    """The knowledge-base retriever of `config` (the shipped KB synced into `kb_dsn`)."""
    return open_retriever(config.kb_dsn, embedder=config.embedder)


def open_assistant(
    config: AssistantConfig,
    *,
    transport: httpx.BaseTransport | None = None,
    retriever: Retriever | None = None,
    narrator: Narrator | None = None,
    store: SqlConversationStore | None = None,
    client_options: Mapping[str, Any] | None = None,
    classifier: IntentClassifier | None = None,
) -> Assistant:
    """Build the pipeline of `config`.

    `transport` reaches the billing API another way (an in-process simulator, a test double);
    `retriever`, `narrator` and `store` share or replace the parts `config` would build — a
    caller running many conversations shares the retriever, which takes longest to build;
    `client_options` go to `BillingClient` (timeouts, retry, breaker, clock, sleep);
    `classifier` replaces the intent classifier `config` would choose.
    Raises ValueError for a bad setting, naming it.
    """
    profile = load_operator_profile(config.operator_profile)
    settings = replace(
        config.settings,
        operator_identifiers=(*config.settings.operator_identifiers, *profile.quotable_identifiers),
    )
    resources = ExitStack()
    try:
        chosen_narrator = narrator or build_narrator(config.narrator)
        if classifier is None:
            classifier = build_intent_classifier(config)
            if isinstance(classifier, ChatCompletionsIntentClassifier):
                resources.callback(classifier.close)
        client = resources.enter_context(
            BillingClient(
                config.base_url, config.api_key, transport=transport, **dict(client_options or {})
            )
        )
        if store is None:
            store = open_conversation_store(config.store_dsn)
            resources.callback(store.close)
        if retriever is None:
            opened = open_retriever_for(config)
            resources.callback(opened.close)
            retriever = opened
    except BaseException:
        resources.close()
        raise
    pipeline = AssistantPipeline(
        tenant=config.tenant,
        capabilities=Capabilities(client),
        store=store,
        retriever=retriever,
        narrator=chosen_narrator,
        settings=settings,
        classifier=classifier,
    )
    return Assistant(pipeline, resources)
