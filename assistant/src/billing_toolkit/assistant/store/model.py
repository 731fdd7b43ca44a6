"""The state of one WhatsApp conversation, keyed by tenant and phone.

A conversation is in exactly one of three states. `BOT`: the assistant answers. `WAITING_FOR_
HUMAN`: the assistant escalated and a person will pick it up. `HUMAN_ACTIVE`: a person has it.
Outside `BOT` the assistant writes nothing — two voices in one chat confuse the subscriber,
and a bot answering after it escalated undoes the escalation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.vocabulary.escalation import Escalation


class ConversationState(StrEnum):
    BOT = "bot"
    WAITING_FOR_HUMAN = "waiting_for_human"
    HUMAN_ACTIVE = "human_active"


@dataclass(frozen=True, slots=True)
class Referent:
    """Something a reply showed that the next message may point back to ("esa", "la
    anterior"): an `invoice`, a `payment` or the `account`, by its identifier."""

    kind: str
    key: str


@dataclass(frozen=True, slots=True)
class Referents:
    """What the last reply showed, in the order shown, and until when it may be pointed
    back to: after `until`, "esa" is a question again ("¿cuál?"), never a stale guess."""

    items: tuple[Referent, ...] = ()
    until: datetime | None = None

    def live(self, now: datetime) -> tuple[Referent, ...]:
        """The items, unless they expired by `now`."""
        return self.items if self.until is not None and now < self.until else ()

    def of_kind(self, kind: str, now: datetime) -> list[str]:
        return [r.key for r in self.live(now) if r.kind == kind]


@dataclass(frozen=True, slots=True)
class ReportDraft:
    """A payment report being read over several turns: the fields said so far (as the
    contract writes them: `amount` a decimal string, `payment_date` ISO), the field the
    last turn asked for, and until when the next message may still complete it. After
    `until` the draft is gone: a reference written an hour later is not silently joined to
    an amount of before (bias: ask again rather than file a stale mix)."""

    method: str | None = None
    amount: str | None = None
    currency: str | None = None
    reference: str | None = None
    bank: str | None = None
    payment_date: str | None = None
    asked: str | None = None
    until: datetime | None = None

    def live(self, now: datetime) -> bool:
        return self.until is not None and now < self.until


@dataclass(frozen=True, slots=True)
class Conversation:
    """What the assistant remembers between turns.

    `verified_account` is set when a phone the billing system does not know proved its
    identity with an account number or cédula; `pending_question` is the question asked
    before that proof, answered once it arrives; `language` is the last one the subscriber
    wrote in; `referents` is what the last reply showed, for "esa" / "that one";
    `report_draft` is a payment report still missing a field (`turn/payment_reports.py`).
    """

    tenant: str
    phone: str
    state: ConversationState = ConversationState.BOT
    verified_account: str | None = None
    pending_question: str | None = None
    language: Language = Language.SPANISH
    agent_id: str | None = None
    updated_at: datetime | None = None
    referents: Referents = field(default_factory=Referents)
    report_draft: ReportDraft | None = None


@dataclass(frozen=True, slots=True)
class EscalationRecord:
    """A stored escalation, as the human agent's tooling reads it back."""

    id: int
    tenant: str
    phone: str
    reason: str
    summary_es: str
    summary_en: str
    context: dict[str, Any]
    created_at: datetime


class ConversationStore(Protocol):
    def get(self, tenant: str, phone: str) -> Conversation:
        """The stored conversation, or a fresh `BOT` one (not yet stored)."""
        ...

    def save(self, conversation: Conversation) -> Conversation:
        """Store the conversation; returns it with `updated_at` set."""
        ...

    def record_escalation(
        self, conversation: Conversation, escalation: Escalation
    ) -> EscalationRecord:
        """Store the escalation and move the conversation to `WAITING_FOR_HUMAN`, atomically."""
        ...

    def assign_agent(self, tenant: str, phone: str, agent_id: str) -> Conversation:
        """A person takes the conversation: `HUMAN_ACTIVE`."""
        ...

    def release_to_bot(self, tenant: str, phone: str) -> Conversation:
        """The person hands the conversation back: `BOT`, with no pending question."""
        ...

    def escalations(self, tenant: str, phone: str) -> list[EscalationRecord]:
        """The conversation's escalations, oldest first."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class WaitingConversation:
    """A conversation as the agents' console lists it: its state and why it is there."""

    conversation: Conversation
    latest_escalation: EscalationRecord | None
