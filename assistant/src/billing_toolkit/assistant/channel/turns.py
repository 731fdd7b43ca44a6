"""What a stored inbound message gets as replies: the tenant's pipeline for text, a fixed
"text only" notice for the rest — both behind the state gate.

This part is blocking (the pipeline calls the billing API and the store synchronously); the
service runs it in a worker thread. Pipelines are built once per tenant, on first use, by the
injected factory — the tests give one over fakes or the in-process simulator, the CLI one
built from the deployment's configuration.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from billing_toolkit.assistant.channel.config import TenantChannel
from billing_toolkit.assistant.channel.handoff_reasons import text_only
from billing_toolkit.assistant.channel.webhook_payload import TEXT
from billing_toolkit.assistant.store import InboundRecord, SqlConversationStore
from billing_toolkit.assistant.turn.gate import pass_gate
from billing_toolkit.assistant.turn.result import Action, TurnResult

IGNORED_KINDS = frozenset({"reaction"})
"""Kinds that are not something to answer: an emoji reaction to one of our messages."""


class TurnHandler(Protocol):
    """`billing_toolkit.assistant.turn.pipeline.AssistantPipeline` satisfies it."""

    def handle(self, phone: str, message: str, *, message_id: str | None = None) -> TurnResult: ...


PipelineFactory = Callable[[TenantChannel, SqlConversationStore], TurnHandler]
"""Builds a tenant's pipeline on the service's conversation store (the one the handoff API
reads, so an agent's take-over silences the very pipeline that answers)."""


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    """The texts to send and, for the metrics, what the turn did (`action`: the pipeline's
    reply/escalate/silent, or `notice`/`ignored` for non-text kinds) and why it escalated."""

    texts: list[str]
    action: str
    reason: str = ""


class TurnRunner:
    def __init__(
        self,
        store: SqlConversationStore,
        factory: PipelineFactory,
        tenants: dict[str, TenantChannel],
    ) -> None:
        self._store = store
        self._factory = factory
        self._tenants = tenants
        self._pipelines: dict[str, TurnHandler] = {}
        self._building = threading.Lock()

    def replies(self, message: InboundRecord) -> TurnOutcome:
        """The texts to send for `message` (none when the bot stays silent)."""
        if message.kind == TEXT:
            result = self._pipeline(message.tenant).handle(
                message.phone, message.text or "", message_id=message.message_id
            )
            silent = result.action is Action.SILENT or not result.reply
            reason = result.escalation.reason.value if result.escalation else ""
            return TurnOutcome([] if silent else [str(result.reply)], result.action.value, reason)
        if message.kind in IGNORED_KINDS:
            return TurnOutcome([], "ignored")
        conversation = self._store.get(message.tenant, message.phone)
        if pass_gate(conversation).proceed:
            return TurnOutcome([text_only(conversation.language)], "notice")
        return TurnOutcome([], Action.SILENT.value)

    def _pipeline(self, tenant: str) -> TurnHandler:
        with self._building:
            if tenant not in self._pipelines:
                self._pipelines[tenant] = self._factory(self._tenants[tenant], self._store)
            return self._pipelines[tenant]
