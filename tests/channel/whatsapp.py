"""Test doubles of the WhatsApp side: webhook payloads as the platform sends them, and a fake
Graph API that records what the service sends and fails on cue."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

FIBRA_NUMBER = "100000000000001"
LLANO_NUMBER = "200000000000002"
FIBRA_SECRET = "fibra-app-secret"
LLANO_SECRET = "llano-app-secret"
FIBRA_AGENT = "fibra-agent-token"
LLANO_AGENT = "llano-agent-token"
VERIFY_TOKEN = "verify-me"
GRAPH_URL = "https://graph.test/v21.0"

ENVIRONMENT = {
    "VERIFY": VERIFY_TOKEN,
    "FIBRA_SECRET": FIBRA_SECRET,
    "FIBRA_TOKEN": "fibra-graph-token",
    "FIBRA_BILLING": "fibra-billing-key",
    "FIBRA_AGENT": FIBRA_AGENT,
    "LLANO_SECRET": LLANO_SECRET,
    "LLANO_TOKEN": "llano-graph-token",
    "LLANO_BILLING": "llano-billing-key",
    "LLANO_AGENT": LLANO_AGENT,
}


def _tenant(name: str, number: str, prefix: str) -> dict[str, Any]:
    return {
        "tenant": name,
        "phone_number_ids": [number],
        "app_secret_env": f"{prefix}_SECRET",
        "access_token_env": f"{prefix}_TOKEN",
        "billing_api_key_env": f"{prefix}_BILLING",
        "agent_token_env": f"{prefix}_AGENT",
    }


CONFIG_DOCUMENT: dict[str, Any] = {
    "graph_api_url": GRAPH_URL,
    "verify_token_env": "VERIFY",
    "tenants": [
        _tenant("fibranet", FIBRA_NUMBER, "FIBRA"),
        _tenant("llanolink", LLANO_NUMBER, "LLANO"),
    ],
}

_ids = itertools.count(1)


def message_id() -> str:
    return f"wamid.TEST{next(_ids):08d}"


def text_message(phone: str, text: str, wamid: str | None = None) -> dict[str, Any]:
    return {
        "from": phone.lstrip("+"),
        "id": wamid or message_id(),
        "timestamp": "1795000000",
        "type": "text",
        "text": {"body": text},
    }


def media_message(phone: str, kind: str, wamid: str | None = None) -> dict[str, Any]:
    return {
        "from": phone.lstrip("+"),
        "id": wamid or message_id(),
        "timestamp": "1795000000",
        "type": kind,
        kind: {"id": "media-1", "mime_type": "audio/ogg"},
    }


def delivery(*messages: dict[str, Any], number: str = FIBRA_NUMBER) -> bytes:
    """A webhook delivery of `messages` to the operator's number `number`, as raw bytes."""
    value: dict[str, Any] = {
        "messaging_product": "whatsapp",
        "metadata": {"display_phone_number": "582125550000", "phone_number_id": number},
        "contacts": [{"profile": {"name": "Cliente"}, "wa_id": m["from"]} for m in messages],
        "messages": list(messages),
    }
    payload = {
        "object": "whatsapp_business_account",
        "entry": [{"id": "WABA-1", "changes": [{"field": "messages", "value": value}]}],
    }
    return json.dumps(payload, ensure_ascii=False).encode()


@dataclass
class FakeGraph:
    """The Graph API's messages endpoint. `failures` answers the next requests in order — an
    HTTP status, or an exception class to raise — before it accepts again."""

    failures: list[int | type[Exception]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)
    requests: list[httpx.Request] = field(default_factory=list)
    retry_after: str | None = None
    on_request: Callable[[], None] | None = None
    """Called as each request arrives: a test looks at the store while the send is open."""

    def handler(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self.on_request is not None:
            self.on_request()
        if self.failures:
            failure = self.failures.pop(0)
            if isinstance(failure, type):
                raise failure("simulated", request=request)  # type: ignore[call-arg]
            headers = {"Retry-After": self.retry_after} if self.retry_after else {}
            return httpx.Response(
                failure,
                headers=headers,
                json={
                    "error": {
                        "message": "simulated failure",
                        "type": "OAuthException",
                        "code": 131000,
                    }
                },
            )
        body = json.loads(request.content)
        self.sent.append(
            {
                "to": body["to"],
                "text": body["text"]["body"],
                "number": request.url.path.split("/")[-2],
                "token": request.headers["Authorization"],
            }
        )
        return httpx.Response(
            200,
            json={
                "messaging_product": "whatsapp",
                "contacts": [{"input": body["to"], "wa_id": body["to"]}],
                "messages": [{"id": f"wamid.OUT{len(self.sent)}"}],
            },
        )

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self.handler))

    def texts_to(self, phone: str) -> list[str]:
        return [m["text"] for m in self.sent if m["to"] == phone.lstrip("+")]


@dataclass
class RecordedSleep:
    """An async sleep that records and returns at once: tests never wait."""

    waits: list[float] = field(default_factory=list)

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
