"""RFC 9457 problem responses of the channel's HTTP API, each with a stable `code`.

Clients (the agents' console, an operator's script) branch on `code`; `detail` says what was
wrong with this request in words a person can act on.
"""

from __future__ import annotations

from starlette.responses import JSONResponse

PROBLEM_BASE = "https://billing-assistant.example.com/problems/"

_TITLES = {
    "invalid_signature": "Invalid webhook signature",
    "verification_failed": "Webhook verification failed",
    "malformed_payload": "Malformed webhook payload",
    "payload_too_large": "Payload too large",
    "store_unavailable": "Message store unavailable",
    "workers_stopped": "Background workers stopped",
    "unauthorized": "Unauthorized",
    "too_many_failures": "Too many failed sign-ins",
    "invalid_phone": "Invalid phone number",
    "invalid_state": "Invalid conversation state",
    "invalid_request": "Invalid request",
    "conversation_not_found": "Conversation not found",
    "already_taken": "Conversation already taken",
    "not_handed_off": "Conversation is with the bot",
    "not_taken_over": "Conversation not taken over",
}


def problem(
    status: int, code: str, detail: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        {
            "type": PROBLEM_BASE + code,
            "title": _TITLES[code],
            "status": status,
            "detail": detail,
            "code": code,
        },
        status_code=status,
        headers=headers,
        media_type="application/problem+json",
    )
