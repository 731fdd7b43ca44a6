"""The rules of the human handoff, once, for every door an agent comes in by.

The handoff API (JSON, bearer token) and the agents' inbox (HTML, session cookie) both call
these functions, so a rule — who may take a conversation, when an agent may write, what a
missing conversation looks like — cannot differ between them. A refusal is a `Refused` with
the HTTP status, the stable `code` of `problems.py` and a sentence for the agent; each door
renders it its own way (problem+json, or a message on the page).

Bias: refuse. Another operator's conversation is refused exactly like one that does not
exist; a take-over or release waits for a turn in progress (`conversation_lock`), so the
bot's last turn cannot overwrite it.
"""

from __future__ import annotations

import asyncio
import hmac
import re
from dataclasses import dataclass

from billing_toolkit.assistant.channel.config import ChannelConfig, TenantChannel
from billing_toolkit.assistant.channel.service import ChannelService
from billing_toolkit.assistant.store import (
    Conversation,
    ConversationState,
    EscalationRecord,
    HistoryEntry,
)
from billing_toolkit.assistant.store.message_log import OutboundRecord
from billing_toolkit.assistant.store.model import WaitingConversation
from billing_toolkit.assistant.store.storable import is_storable
from billing_toolkit.assistant.text.identifiers import normalize_phone

AGENT_ID = re.compile(r"^[A-Za-z0-9._@-]{1,64}$")
MAX_TEXT = 4096
"""WhatsApp's limit for the body of a text message."""


class Refused(Exception):
    """The action is not done; `status` and `code` as in `problems.py`, `detail` for a person."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail


@dataclass(frozen=True, slots=True)
class ConversationView:
    """A conversation as an agent reads it: its state, every escalation, both sides."""

    conversation: Conversation
    escalations: list[EscalationRecord]
    history: list[HistoryEntry]


def tenant_by_agent_token(config: ChannelConfig, token: str) -> TenantChannel | None:
    """The tenant whose agents hold `token`; every tenant is compared (in constant time),
    so the answer's timing does not tell which tenant came close."""
    found = None
    for tenant in config.tenants:
        if hmac.compare_digest(tenant.agent_token.value.encode(), token.strip().encode()):
            found = tenant
    return found


def parse_state(raw: str) -> ConversationState:
    try:
        return ConversationState(raw)
    except ValueError:
        raise Refused(
            400,
            "invalid_state",
            f"state must be one of {', '.join(s.value for s in ConversationState)}; got {raw!r}.",
        ) from None


def parse_phone(raw: str) -> str:
    """E.164 from a path segment, with or without its `+`."""
    raw = raw.strip()
    phone = normalize_phone(raw if raw.startswith("+") else "+" + raw)
    if phone is None:
        raise Refused(
            400, "invalid_phone", f"{raw!r} is not an E.164 phone number (e.g. %2B584121234567)."
        )
    return phone


def checked_agent_id(raw: str | None) -> str:
    if raw is None or not AGENT_ID.match(raw):
        raise Refused(
            400,
            "invalid_request",
            'The body must be {"agent_id": "<1-64 of letters, digits, . _ @ ->"}.',
        )
    return raw


def checked_text(raw: str | None) -> str:
    """The agent's message, stripped; refused when WhatsApp or the store could not carry it
    as written (the agent can fix it, unlike a subscriber's text, which is repaired)."""
    text = (raw or "").strip()
    if not text or len(text) > MAX_TEXT:
        raise Refused(
            400, "invalid_request", f'The body must be {{"text": "<1-{MAX_TEXT} characters>"}}.'
        )
    if not is_storable(text):
        raise Refused(
            400,
            "invalid_request",
            "The text holds a lone UTF-16 surrogate (half "
            "an emoji) or a NUL character: it cannot be sent as written.",
        )
    return text


def _not_found(phone: str) -> Refused:
    return Refused(404, "conversation_not_found", f"No conversation with {phone}.")


async def in_state(
    service: ChannelService, tenant: str, state: ConversationState
) -> list[WaitingConversation]:
    """The tenant's conversations in `state`, oldest first (the store's order)."""
    return await asyncio.to_thread(service.store.in_state, tenant, state)


async def view(service: ChannelService, tenant: str, phone: str) -> ConversationView:
    store = service.store
    conversation = await asyncio.to_thread(store.get, tenant, phone)
    history = await asyncio.to_thread(store.messages.history, tenant, phone)
    if conversation.updated_at is None and not history:
        raise _not_found(phone)
    escalations = await asyncio.to_thread(store.escalations, tenant, phone)
    return ConversationView(conversation, escalations, history)


async def take_over(service: ChannelService, tenant: str, phone: str, agent: str) -> Conversation:
    """`agent` has the conversation; the bot is silent. The same agent again is fine."""
    async with service.conversation_lock(tenant, phone):
        current = await asyncio.to_thread(service.store.get, tenant, phone)
        if current.updated_at is None:
            raise _not_found(phone)
        if current.state is ConversationState.HUMAN_ACTIVE and current.agent_id != agent:
            raise Refused(
                409,
                "already_taken",
                f"Agent {current.agent_id} has this conversation; they release it first.",
            )
        return await asyncio.to_thread(service.store.assign_agent, tenant, phone, agent)


async def release(service: ChannelService, tenant: str, phone: str) -> Conversation:
    async with service.conversation_lock(tenant, phone):
        current = await asyncio.to_thread(service.store.get, tenant, phone)
        if current.updated_at is None:
            raise _not_found(phone)
        if current.state is ConversationState.BOT:
            raise Refused(409, "not_handed_off", "The bot already has this conversation.")
        return await asyncio.to_thread(service.store.release_to_bot, tenant, phone)


async def write(service: ChannelService, tenant: str, phone: str, text: str) -> OutboundRecord:
    """Queue the agent's `text` (already `checked_text`) from the number the subscriber
    wrote to; delivered in the background with the bot's retries."""
    current = await asyncio.to_thread(service.store.get, tenant, phone)
    channel = await asyncio.to_thread(service.store.messages.last_channel, tenant, phone)
    if current.updated_at is None or channel is None:
        raise _not_found(phone)
    if current.state is not ConversationState.HUMAN_ACTIVE:
        raise Refused(
            409,
            "not_taken_over",
            "Take the conversation over before writing in "
            "it: the bot and a person must not answer at the same time.",
        )
    return await service.send_for_agent(tenant, phone, channel, text)
