"""Reading the subscribers' messages out of a WhatsApp webhook delivery."""

from __future__ import annotations

import json

import pytest

from billing_toolkit.assistant.channel.webhook_payload import (
    IncomingMessage,
    PayloadError,
    incoming_messages,
)
from tests.channel.whatsapp import FIBRA_NUMBER, delivery, media_message, text_message


def parse(body: bytes) -> list[IncomingMessage]:
    return incoming_messages(json.loads(body))


def test_text_and_other_kinds_in_delivery_order() -> None:
    found = parse(
        delivery(
            text_message("+584121234567", "hola", "w1"),
            media_message("+584121234567", "audio", "w2"),
        )
    )
    assert found == [
        IncomingMessage(FIBRA_NUMBER, "w1", "+584121234567", "text", "hola"),
        IncomingMessage(FIBRA_NUMBER, "w2", "+584121234567", "audio", None),
    ]


def test_a_delivery_of_statuses_only_has_no_messages() -> None:
    statuses = {"entry": [{"changes": [{"value": {"statuses": [{"id": "w", "status": "sent"}]}}]}]}
    assert incoming_messages(statuses) == []


@pytest.mark.parametrize(
    ("payload", "where"),
    [
        ([], "payload must be an object"),
        ({"entry": {}}, "payload.entry must be an array"),
        (
            {"entry": [{"changes": [{"value": {"messages": [{}]}}]}]},
            "entry[0].changes[0].value.metadata must be an object",
        ),
        (
            {
                "entry": [
                    {
                        "changes": [
                            {
                                "value": {
                                    "metadata": {"phone_number_id": "1"},
                                    "messages": [
                                        {
                                            "from": "abc",
                                            "id": "w",
                                            "type": "text",
                                            "text": {"body": "x"},
                                        }
                                    ],
                                }
                            }
                        ]
                    }
                ]
            },
            "entry[0].changes[0].value.messages[0].from is not a phone number",
        ),
        (
            {
                "entry": [
                    {
                        "changes": [
                            {
                                "value": {
                                    "metadata": {"phone_number_id": "1"},
                                    "messages": [
                                        {
                                            "from": "584121234567",
                                            "type": "text",
                                            "text": {"body": "x"},
                                        }
                                    ],
                                }
                            }
                        ]
                    }
                ]
            },
            "entry[0].changes[0].value.messages[0].id must be a non-empty string",
        ),
    ],
)
def test_a_malformed_delivery_names_where(payload: object, where: str) -> None:
    with pytest.raises(PayloadError) as raised:
        incoming_messages(payload)
    assert str(raised.value) == where
