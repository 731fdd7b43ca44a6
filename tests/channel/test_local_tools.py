"""The tools for running the service without WhatsApp: the fake Graph API and the signed
delivery builder — checked against the real sender and the real webhook reader."""

from __future__ import annotations

import asyncio
import json
import random

import httpx

from billing_toolkit.assistant.channel import Secret, sign
from billing_toolkit.assistant.channel.deliveries import text_delivery
from billing_toolkit.assistant.channel.fake_graph import create_fake_graph_app
from billing_toolkit.assistant.channel.graph_sender import GraphSender
from billing_toolkit.assistant.channel.signature import signing_secret
from billing_toolkit.assistant.channel.webhook_payload import IncomingMessage, incoming_messages


def test_the_sender_and_the_fake_graph_speak_the_same_api() -> None:
    shown: list[str] = []

    async def send() -> tuple[object, object]:
        transport = httpx.ASGITransport(app=create_fake_graph_app(shown.append))
        async with httpx.AsyncClient(transport=transport) as http:
            sender = GraphSender("http://graph.local/v21.0", http, rng=random.Random(1))
            sent = await sender.send_text(Secret("tok"), "100000000000001", "+584121234567", "Hola")
            refused = await http.post("http://graph.local/v21.0/1/messages", json={})
        return sent, refused.status_code

    outcome, refused = asyncio.run(send())
    assert outcome.sent and outcome.attempts == 1  # type: ignore[attr-defined]
    assert outcome.provider_id == "wamid.FAKE0000000001"  # type: ignore[attr-defined]
    assert shown == ["→ +584121234567 (from 100000000000001): Hola"]
    assert refused == 401


def test_a_built_delivery_is_read_back_as_the_same_message() -> None:
    body = text_delivery(
        "100000000000001",
        "+584121234567",
        "¿cuánto debo?",
        message_id="wamid.1",
        timestamp=1795000000,
    )
    assert signing_secret(body, sign(body, "s"), ["s"]) == "s"
    assert incoming_messages(json.loads(body)) == [
        IncomingMessage("100000000000001", "wamid.1", "+584121234567", "text", "¿cuánto debo?")
    ]
