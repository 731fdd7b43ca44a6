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
them. Bodies are bounded before they are read (64 KiB) and their nesting before they are
parsed (`json_body`); an agent's text the store cannot hold exactly (half an emoji) is
refused, since the agent can fix it — unlike a subscriber's, which is repaired.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from billing_toolkit.assistant.channel import handoff_actions as actions
from billing_toolkit.assistant.channel.config import TenantChannel
from billing_toolkit.assistant.channel.handoff_actions import (
    Refused,
    checked_agent_id,
    checked_text,
    parse_phone,
    parse_state,
)
from billing_toolkit.assistant.channel.json_body import BodyProblem, parse_json, read_body
from billing_toolkit.assistant.channel.problems import problem
from billing_toolkit.assistant.channel.service import ChannelService
from billing_toolkit.assistant.channel.sign_in_guard import SignInGuard, retry_after
from billing_toolkit.assistant.store import (
    Conversation,
    ConversationState,
    EscalationRecord,
    HistoryEntry,
)
from billing_toolkit.webconsole.throttle import client_address

MAX_BODY_BYTES = 64 * 1024
"""Room for a text of `MAX_TEXT` characters written as six-byte JSON escapes, and then some."""


def _service(request: Request) -> ChannelService:
    service: ChannelService = request.app.state.channel
    return service


def _tenant(request: Request) -> TenantChannel | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token:
        return None
    return actions.tenant_by_agent_token(_service(request).config, token)


TenantEndpoint = Callable[[Request, TenantChannel], Awaitable[Response]]
ConversationEndpoint = Callable[[Request, TenantChannel, str], Awaitable[Response]]


def for_agents(endpoint: TenantEndpoint) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint, called with the tenant whose agent token the request carries (401
    without one, before the body is read; 429 while the address must wait after wrong
    tokens, `sign_in_guard`); a body or an action it refuses is answered here."""

    async def guarded(request: Request) -> Response:
        guard, address = SignInGuard(_service(request)), client_address(request.scope)
        if wait := await guard.wait_s(address):
            return problem(
                429,
                "too_many_failures",
                f"Too many wrong agent tokens from this address; retry in {wait} s.",
                headers=retry_after(wait),
            )
        tenant = _tenant(request)
        if tenant is None:
            await guard.failed(address)
            return problem(
                401,
                "unauthorized",
                "An agent bearer token of this service is required.",
                headers={"WWW-Authenticate": 'Bearer realm="handoff"'},
            )
        await guard.succeeded(address)
        try:
            return await endpoint(request, tenant)
        except (BodyProblem, Refused) as refused:
            return problem(refused.status, refused.code, refused.detail)

    return guarded


def on_conversation(endpoint: ConversationEndpoint) -> Callable[[Request], Awaitable[Response]]:
    """`for_agents`, and the conversation's phone from the path in E.164 (400 if it is not a
    phone)."""

    async def with_phone(request: Request, tenant: TenantChannel) -> Response:
        return await endpoint(request, tenant, parse_phone(str(request.path_params["phone"])))

    return for_agents(with_phone)


def _escalation(record: EscalationRecord | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {
        "id": record.id,
        "reason": record.reason,
        "agent_summary": {"es": record.summary_es, "en": record.summary_en},
        "context": record.context,
        "created_at": record.created_at.isoformat(),
    }


def _conversation(conversation: Conversation) -> dict[str, Any]:
    return {
        "phone": conversation.phone,
        "state": conversation.state.value,
        "agent_id": conversation.agent_id,
        "language": conversation.language.value,
        "verified_account": conversation.verified_account,
        "updated_at": conversation.updated_at.isoformat() if conversation.updated_at else None,
    }


def _entry(entry: HistoryEntry) -> dict[str, Any]:
    return {
        "direction": entry.direction,
        "at": entry.at.isoformat(),
        "kind": entry.kind,
        "text": entry.text,
        "status": entry.status,
        "id": entry.ref,
        "note": entry.note,
    }


@for_agents
async def list_conversations(request: Request, tenant: TenantChannel) -> Response:
    state = parse_state(
        request.query_params.get("state", ConversationState.WAITING_FOR_HUMAN.value)
    )
    found = await actions.in_state(_service(request), tenant.tenant, state)
    return JSONResponse(
        {
            "conversations": [
                {
                    **_conversation(item.conversation),
                    "escalation": _escalation(item.latest_escalation),
                }
                for item in found
            ]
        }
    )


@on_conversation
async def conversation_detail(request: Request, tenant: TenantChannel, phone: str) -> Response:
    seen = await actions.view(_service(request), tenant.tenant, phone)
    return JSONResponse(
        {
            **_conversation(seen.conversation),
            "escalations": [_escalation(e) for e in seen.escalations],
            "messages": [_entry(e) for e in seen.history],
        }
    )


async def _field(request: Request, name: str) -> str | None:
    """The string `name` of a JSON object body; None if the object lacks it. Raises
    `BodyProblem` for a body too large, too deep or not JSON."""
    body = parse_json(await read_body(request, MAX_BODY_BYTES) or b"{}", "invalid_request")
    value = body.get(name) if isinstance(body, dict) else None
    return value if isinstance(value, str) else None


@on_conversation
async def take_over(request: Request, tenant: TenantChannel, phone: str) -> Response:
    agent = checked_agent_id(await _field(request, "agent_id"))
    taken = await actions.take_over(_service(request), tenant.tenant, phone, agent)
    return JSONResponse(_conversation(taken))


@on_conversation
async def release(request: Request, tenant: TenantChannel, phone: str) -> Response:
    released = await actions.release(_service(request), tenant.tenant, phone)
    return JSONResponse(_conversation(released))


@on_conversation
async def write(request: Request, tenant: TenantChannel, phone: str) -> Response:
    text = checked_text(await _field(request, "text"))
    queued = await actions.write(_service(request), tenant.tenant, phone, text)
    return JSONResponse(
        {"id": queued.id, "status": queued.status.value, "text": queued.text}, status_code=202
    )


ROUTES = [
    Route("/handoff/conversations", list_conversations, methods=["GET"]),
    Route("/handoff/conversations/{phone}", conversation_detail, methods=["GET"]),
    Route("/handoff/conversations/{phone}/takeover", take_over, methods=["POST"]),
    Route("/handoff/conversations/{phone}/release", release, methods=["POST"]),
    Route("/handoff/conversations/{phone}/messages", write, methods=["POST"]),
]
