"""The agents' console API: who waits for a person, take a conversation, give it back.

    GET  /handoff/conversations?state=waiting_for_human   the queue (or human_active, bot)
    GET  /handoff/conversations/{phone}                   state, escalations, message history
    POST /handoff/conversations/{phone}/takeover          {"agent_id": "ana"} → bot silent
    POST /handoff/conversations/{phone}/release           back to the bot
    POST /handoff/conversations/{phone}/messages          {"text": "…"} the agent writes

Each operator's agents have their own bearer token, and the token alone decides the tenant:
an agent sees only their operator's conversations, and another operator's conversation
answers exactly like one that does not exist. Phones are E.164; in a path, write the `+` as
`%2B` or leave it out. Take-over and release wait for a turn in progress on that conversation
to finish (see `ChannelService.conversation_lock`), so the bot's last turn cannot overwrite
them.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from billing_toolkit.assistant.channel.config import TenantChannel
from billing_toolkit.assistant.channel.problems import problem
from billing_toolkit.assistant.channel.service import ChannelService
from billing_toolkit.assistant.store import (
    Conversation,
    ConversationState,
    EscalationRecord,
    HistoryEntry,
)
from billing_toolkit.assistant.text.identifiers import normalize_phone

_AGENT_ID = re.compile(r"^[A-Za-z0-9._@-]{1,64}$")
MAX_TEXT = 4096
"""WhatsApp's limit for the body of a text message."""


def _service(request: Request) -> ChannelService:
    service: ChannelService = request.app.state.channel
    return service


def _tenant(request: Request) -> TenantChannel | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token:
        return None
    found = None
    for tenant in _service(request).config.tenants:
        if hmac.compare_digest(tenant.agent_token.value.encode(), token.strip().encode()):
            found = tenant
    return found


TenantEndpoint = Callable[[Request, TenantChannel], Awaitable[Response]]
ConversationEndpoint = Callable[[Request, TenantChannel, str], Awaitable[Response]]


def for_agents(endpoint: TenantEndpoint) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint, called with the tenant whose agent token the request carries (401
    without one)."""
    async def guarded(request: Request) -> Response:
        tenant = _tenant(request)
        if tenant is None:
            return problem(401, "unauthorized", "An agent bearer token of this service is "
                           "required.", headers={"WWW-Authenticate": 'Bearer realm="handoff"'})
        return await endpoint(request, tenant)
    return guarded


def on_conversation(endpoint: ConversationEndpoint) -> Callable[[Request], Awaitable[Response]]:
    """`for_agents`, and the conversation's phone from the path in E.164 (400 if it is not a
    phone)."""
    async def with_phone(request: Request, tenant: TenantChannel) -> Response:
        raw = str(request.path_params["phone"]).strip()
        phone = normalize_phone(raw if raw.startswith("+") else "+" + raw)
        if phone is None:
            return problem(400, "invalid_phone", f"{raw!r} is not an E.164 phone number (e.g. "
                           "%2B584121234567).")
        return await endpoint(request, tenant, phone)
    return for_agents(with_phone)


def _not_found(phone: str) -> Response:
    return problem(404, "conversation_not_found", f"No conversation with {phone}.")


def _escalation(record: EscalationRecord | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {"id": record.id, "reason": record.reason,
            "agent_summary": {"es": record.summary_es, "en": record.summary_en},
            "context": record.context, "created_at": record.created_at.isoformat()}


def _conversation(conversation: Conversation) -> dict[str, Any]:
    return {"phone": conversation.phone, "state": conversation.state.value,
            "agent_id": conversation.agent_id, "language": conversation.language.value,
            "verified_account": conversation.verified_account,
            "updated_at": conversation.updated_at.isoformat() if conversation.updated_at
            else None}


def _entry(entry: HistoryEntry) -> dict[str, Any]:
    return {"direction": entry.direction, "at": entry.at.isoformat(), "kind": entry.kind,
            "text": entry.text, "status": entry.status, "id": entry.ref}


@for_agents
async def list_conversations(request: Request, tenant: TenantChannel) -> Response:
    raw = request.query_params.get("state", ConversationState.WAITING_FOR_HUMAN.value)
    try:
        state = ConversationState(raw)
    except ValueError:
        return problem(400, "invalid_state", f"state must be one of "
                       f"{', '.join(s.value for s in ConversationState)}; got {raw!r}.")
    found = await asyncio.to_thread(_service(request).store.in_state, tenant.tenant, state)
    return JSONResponse({"conversations": [
        {**_conversation(item.conversation), "escalation": _escalation(item.latest_escalation)}
        for item in found]})


@on_conversation
async def conversation_detail(request: Request, tenant: TenantChannel, phone: str) -> Response:
    store = _service(request).store
    conversation = await asyncio.to_thread(store.get, tenant.tenant, phone)
    history = await asyncio.to_thread(store.messages.history, tenant.tenant, phone)
    if conversation.updated_at is None and not history:
        return _not_found(phone)
    escalations = await asyncio.to_thread(store.escalations, tenant.tenant, phone)
    return JSONResponse({**_conversation(conversation),
                         "escalations": [_escalation(e) for e in escalations],
                         "messages": [_entry(e) for e in history]})


async def _field(request: Request, name: str) -> str | None:
    """The string `name` of a JSON object body; None if the body is not one or lacks it."""
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError:
        return None
    value = body.get(name) if isinstance(body, dict) else None
    return value if isinstance(value, str) else None


async def _agent_id(request: Request) -> str | None:
    agent = await _field(request, "agent_id")
    return agent if agent is not None and _AGENT_ID.match(agent) else None


@on_conversation
async def take_over(request: Request, tenant: TenantChannel, phone: str) -> Response:
    agent = await _agent_id(request)
    if agent is None:
        return problem(400, "invalid_request", 'The body must be {"agent_id": "<1-64 of '
                       'letters, digits, . _ @ ->"}.')
    service = _service(request)
    async with service.conversation_lock(tenant.tenant, phone):
        current = await asyncio.to_thread(service.store.get, tenant.tenant, phone)
        if current.updated_at is None:
            return _not_found(phone)
        if current.state is ConversationState.HUMAN_ACTIVE and current.agent_id != agent:
            return problem(409, "already_taken",
                           f"Agent {current.agent_id} has this conversation; they release it "
                           "first.")
        taken = await asyncio.to_thread(service.store.assign_agent, tenant.tenant, phone, agent)
    return JSONResponse(_conversation(taken))


@on_conversation
async def release(request: Request, tenant: TenantChannel, phone: str) -> Response:
    service = _service(request)
    async with service.conversation_lock(tenant.tenant, phone):
        current = await asyncio.to_thread(service.store.get, tenant.tenant, phone)
        if current.updated_at is None:
            return _not_found(phone)
        if current.state is ConversationState.BOT:
            return problem(409, "not_handed_off", "The bot already has this conversation.")
        released = await asyncio.to_thread(service.store.release_to_bot, tenant.tenant, phone)
    return JSONResponse(_conversation(released))


@on_conversation
async def write(request: Request, tenant: TenantChannel, phone: str) -> Response:
    text = (await _field(request, "text") or "").strip()
    if not text or len(text) > MAX_TEXT:
        return problem(400, "invalid_request", f'The body must be {{"text": "<1-{MAX_TEXT} '
                       'characters>"}.')
    service = _service(request)
    current = await asyncio.to_thread(service.store.get, tenant.tenant, phone)
    channel = await asyncio.to_thread(service.store.messages.last_channel, tenant.tenant, phone)
    if current.updated_at is None or channel is None:
        return _not_found(phone)
    if current.state is not ConversationState.HUMAN_ACTIVE:
        return problem(409, "not_taken_over", "Take the conversation over before writing in "
                       "it: the bot and a person must not answer at the same time.")
    queued = await service.send_for_agent(tenant.tenant, phone, channel, text)
    return JSONResponse({"id": queued.id, "status": queued.status.value, "text": queued.text},
                        status_code=202)


ROUTES = [
    Route("/handoff/conversations", list_conversations, methods=["GET"]),
    Route("/handoff/conversations/{phone}", conversation_detail, methods=["GET"]),
    Route("/handoff/conversations/{phone}/takeover", take_over, methods=["POST"]),
    Route("/handoff/conversations/{phone}/release", release, methods=["POST"]),
    Route("/handoff/conversations/{phone}/messages", write, methods=["POST"]),
]
