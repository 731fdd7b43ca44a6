"""The agents' console API: who waits for a person, take a conversation, give it back.

    GET  /handoff/conversations?state=waiting_for_human   the queue (or human_active, bot)
    GET  /handoff/conversations/{phone}                   state, escalations, message history
    POST /handoff/conversations/{phone}/takeover          {"agent_id": "ana"} → bot silent
    POST /handoff/conversations/{phone}/release           back to the bot

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
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from assistant.channel.config import TenantChannel
from assistant.channel.problems import problem
from assistant.channel.service import ChannelService
from assistant.identifiers import normalize_phone
from assistant.store import (
    Conversation,
    ConversationState,
    EscalationRecord,
    HistoryEntry,
)

_AGENT_ID = re.compile(r"^[A-Za-z0-9._@-]{1,64}$")


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


def _unauthorized() -> Response:
    return problem(401, "unauthorized", "An agent bearer token of this service is required.",
                   headers={"WWW-Authenticate": 'Bearer realm="handoff"'})


def _phone(request: Request) -> str | None:
    raw = str(request.path_params["phone"]).strip()
    return normalize_phone(raw if raw.startswith("+") else "+" + raw)


def _invalid_phone(request: Request) -> Response:
    return problem(400, "invalid_phone", f"{request.path_params['phone']!r} is not an E.164 "
                   "phone number (e.g. %2B584121234567).")


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


async def list_conversations(request: Request) -> Response:
    tenant = _tenant(request)
    if tenant is None:
        return _unauthorized()
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


async def conversation_detail(request: Request) -> Response:
    tenant = _tenant(request)
    if tenant is None:
        return _unauthorized()
    phone = _phone(request)
    if phone is None:
        return _invalid_phone(request)
    store = _service(request).store
    conversation = await asyncio.to_thread(store.get, tenant.tenant, phone)
    history = await asyncio.to_thread(store.messages.history, tenant.tenant, phone)
    if conversation.updated_at is None and not history:
        return _not_found(phone)
    escalations = await asyncio.to_thread(store.escalations, tenant.tenant, phone)
    return JSONResponse({**_conversation(conversation),
                         "escalations": [_escalation(e) for e in escalations],
                         "messages": [_entry(e) for e in history]})


async def _agent_id(request: Request) -> str | None:
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError:
        return None
    agent = body.get("agent_id") if isinstance(body, dict) else None
    return agent if isinstance(agent, str) and _AGENT_ID.match(agent) else None


async def take_over(request: Request) -> Response:
    tenant = _tenant(request)
    if tenant is None:
        return _unauthorized()
    phone = _phone(request)
    if phone is None:
        return _invalid_phone(request)
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


async def release(request: Request) -> Response:
    tenant = _tenant(request)
    if tenant is None:
        return _unauthorized()
    phone = _phone(request)
    if phone is None:
        return _invalid_phone(request)
    service = _service(request)
    async with service.conversation_lock(tenant.tenant, phone):
        current = await asyncio.to_thread(service.store.get, tenant.tenant, phone)
        if current.updated_at is None:
            return _not_found(phone)
        if current.state is ConversationState.BOT:
            return problem(409, "not_handed_off", "The bot already has this conversation.")
        released = await asyncio.to_thread(service.store.release_to_bot, tenant.tenant, phone)
    return JSONResponse(_conversation(released))


ROUTES = [
    Route("/handoff/conversations", list_conversations, methods=["GET"]),
    Route("/handoff/conversations/{phone}", conversation_detail, methods=["GET"]),
    Route("/handoff/conversations/{phone}/takeover", take_over, methods=["POST"]),
    Route("/handoff/conversations/{phone}/release", release, methods=["POST"]),
]
