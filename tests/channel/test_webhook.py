"""The webhook as WhatsApp uses it: verification, signatures, redelivery, message kinds."""

from __future__ import annotations

import json
import threading

import pytest

from billing_toolkit.assistant.channel import TurnHandler, sign
from billing_toolkit.assistant.channel.webhook import MAX_BODY_BYTES
from billing_toolkit.assistant.store import ConversationState
from billing_toolkit.assistant.turn.result import TurnResult
from tests.assistant.assistant_fakes import MARIA_PHONE
from tests.channel.conftest import Factory, Harness, RunService
from tests.channel.whatsapp import (
    FIBRA_NUMBER,
    FIBRA_SECRET,
    LLANO_NUMBER,
    LLANO_SECRET,
    VERIFY_TOKEN,
    delivery,
    media_message,
    text_message,
)


def stored(harness: Harness) -> list[str]:
    return [
        entry.ref
        for entry in harness.store.messages.history("fibranet", MARIA_PHONE)
        if entry.direction == "in"
    ]


class TestVerification:
    def test_the_platform_gets_its_challenge_back(self, harness: Harness) -> None:
        response = harness.client.get(
            "/webhook",
            params={
                "hub.mode": "subscribe",
                "hub.verify_token": VERIFY_TOKEN,
                "hub.challenge": "1158201444",
            },
        )
        assert (response.status_code, response.text) == (200, "1158201444")

    @pytest.mark.parametrize(
        ("mode", "token"),
        [("subscribe", "guess"), ("unsubscribe", VERIFY_TOKEN), ("subscribe", "")],
    )
    def test_a_wrong_token_or_mode_is_refused(
        self, harness: Harness, mode: str, token: str
    ) -> None:
        response = harness.client.get(
            "/webhook", params={"hub.mode": mode, "hub.verify_token": token, "hub.challenge": "42"}
        )
        assert response.status_code == 403
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["code"] == "verification_failed"
        assert "42" not in response.text


class TestSignature:
    @pytest.mark.parametrize(
        "signature", [None, "", "sha256=" + "0" * 64, "sha1=abc", "sha256=ñ", "garbage"]
    )
    def test_a_bad_or_missing_signature_is_401_and_nothing_is_stored(
        self, harness: Harness, signature: str | None
    ) -> None:
        body = delivery(text_message(MARIA_PHONE, "¿Cuál es mi saldo?"))
        headers = {"Content-Type": "application/json"}
        if signature is not None:
            headers["X-Hub-Signature-256"] = signature.encode("latin-1")  # type: ignore[assignment]
        response = harness.client.post("/webhook", content=body, headers=headers)
        harness.drain()
        assert response.status_code == 401
        assert response.json()["code"] == "invalid_signature"
        assert stored(harness) == []
        assert harness.graph.requests == []

    def test_a_body_changed_after_signing_is_refused(self, harness: Harness) -> None:
        body = delivery(text_message(MARIA_PHONE, "hola"))
        tampered = body.replace(b"hola", b"HOLA")
        response = harness.post(tampered, signature=sign(body, FIBRA_SECRET))
        assert response.status_code == 401
        assert stored(harness) == []

    def test_another_tenants_secret_cannot_deliver_for_this_number(self, harness: Harness) -> None:
        """llanolink's app secret signs a message to fibranet's number: a valid signature,
        but not of the app that owns the number — acknowledged and dropped."""
        response = harness.post(
            delivery(text_message(MARIA_PHONE, "mi saldo"), number=FIBRA_NUMBER),
            secret=LLANO_SECRET,
        )
        harness.drain()
        assert response.json() == {"stored": 0, "duplicates": 0, "ignored": 1, "rejected": 0}
        assert stored(harness) == [] and harness.graph.sent == []

    def test_a_number_no_tenant_owns_is_ignored(self, harness: Harness) -> None:
        response = harness.post(
            delivery(text_message(MARIA_PHONE, "hola"), number="999999999999999")
        )
        assert response.json()["ignored"] == 1

    def test_a_signed_but_malformed_delivery_is_400(self, harness: Harness) -> None:
        for body, where in (
            (b"{not json", "Expecting"),
            (
                json.dumps(
                    {
                        "entry": [
                            {
                                "changes": [
                                    {
                                        "value": {
                                            "messages": [
                                                {"from": "584121234567", "id": "w1", "type": "text"}
                                            ],
                                            "metadata": {"phone_number_id": FIBRA_NUMBER},
                                        }
                                    }
                                ]
                            }
                        ]
                    }
                ).encode(),
                "entry[0].changes[0].value.messages[0].text must be an object",
            ),
        ):
            response = harness.post(body)
            assert response.status_code == 400
            assert response.json()["code"] == "malformed_payload"
            assert where in response.json()["detail"]


class TestMessages:
    def test_a_text_message_is_answered_through_the_graph_api(self, harness: Harness) -> None:
        response = harness.say(MARIA_PHONE, "¿Cuál es mi saldo?")
        assert response.status_code == 200
        assert response.json() == {"stored": 1, "duplicates": 0, "ignored": 0, "rejected": 0}
        [sent] = harness.graph.sent
        assert sent["to"] == "584121234567" and sent["number"] == FIBRA_NUMBER
        assert sent["token"] == "Bearer fibra-graph-token"
        assert "USD 38,28" in sent["text"]
        history = harness.store.messages.history("fibranet", MARIA_PHONE)
        assert [(e.direction, e.status) for e in history] == [("in", "done"), ("out", "sent")]
        assert history[1].ref == "wamid.OUT1"

    def test_a_redelivered_message_is_neither_processed_nor_answered_twice(
        self, harness: Harness
    ) -> None:
        body = delivery(text_message(MARIA_PHONE, "¿Cuál es mi saldo?", "wamid.SAME"))
        first = harness.post(body)
        harness.drain()
        again = harness.post(body)
        harness.drain()
        assert first.json()["stored"] == 1
        assert again.status_code == 200
        assert again.json() == {"stored": 0, "duplicates": 1, "ignored": 0, "rejected": 0}
        assert len(harness.graph.sent) == 1
        assert stored(harness) == ["wamid.SAME"]

    def test_the_same_message_id_for_two_tenants_is_two_messages(self, harness: Harness) -> None:
        harness.post(delivery(text_message(MARIA_PHONE, "hola", "wamid.X")))
        response = harness.post(
            delivery(text_message(MARIA_PHONE, "hola", "wamid.X"), number=LLANO_NUMBER),
            secret=LLANO_SECRET,
        )
        harness.drain()
        assert response.json()["stored"] == 1

    @pytest.mark.parametrize("kind", ["audio", "image", "location", "sticker"])
    def test_a_message_that_is_not_text_gets_the_text_only_notice(
        self, harness: Harness, kind: str
    ) -> None:
        harness.post(delivery(media_message(MARIA_PHONE, kind)))
        harness.drain()
        assert harness.graph.texts_to(MARIA_PHONE) == [
            "Por ahora solo puedo leer mensajes de texto. ¿Me escribes tu consulta, por favor?"
        ]

    def test_a_voice_note_while_a_person_has_the_conversation_gets_nothing(
        self, harness: Harness
    ) -> None:
        harness.store.save(harness.store.get("fibranet", MARIA_PHONE))
        harness.store.assign_agent("fibranet", MARIA_PHONE, "ana")
        harness.post(delivery(media_message(MARIA_PHONE, "audio")))
        harness.drain()
        assert harness.graph.sent == []

    def test_a_reaction_is_not_answered(self, harness: Harness) -> None:
        reaction = {
            "from": "584121234567",
            "id": "wamid.R",
            "type": "reaction",
            "reaction": {"message_id": "wamid.OUT1", "emoji": "👍"},
        }
        harness.post(delivery(reaction))
        harness.drain()
        assert harness.graph.sent == []
        assert harness.store.messages.history("fibranet", MARIA_PHONE)[0].status == "done"

    def test_delivery_statuses_are_acknowledged_and_dropped(self, harness: Harness) -> None:
        statuses = {
            "entry": [
                {
                    "changes": [
                        {
                            "field": "messages",
                            "value": {
                                "metadata": {"phone_number_id": FIBRA_NUMBER},
                                "statuses": [{"id": "wamid.OUT1", "status": "read"}],
                            },
                        }
                    ]
                }
            ]
        }
        response = harness.post(json.dumps(statuses).encode())
        assert response.json() == {"stored": 0, "duplicates": 0, "ignored": 0, "rejected": 0}

    def test_two_messages_of_one_subscriber_are_answered_in_order(self, harness: Harness) -> None:
        harness.post(
            delivery(
                text_message(MARIA_PHONE, "What is my balance?"),
                text_message(MARIA_PHONE, "quiero hablar con un asesor"),
            )
        )
        harness.drain()
        first, second = harness.graph.texts_to(MARIA_PHONE)
        assert "USD 38.28" in first
        assert second.startswith("Claro, te comunico con un asesor")
        assert harness.store.get("fibranet", MARIA_PHONE).state is (
            ConversationState.WAITING_FOR_HUMAN
        )

    def test_the_delivery_is_acknowledged_before_its_turn_runs(
        self, run_service: RunService, factory: Factory
    ) -> None:
        """The turn is held until after the webhook answered: acknowledging does not wait."""
        gate = threading.Event()

        class Held:
            def __init__(self, inner: TurnHandler) -> None:
                self.inner = inner

            def handle(
                self, phone: str, message: str, *, message_id: str | None = None
            ) -> TurnResult:
                assert gate.wait(timeout=10), "the webhook never answered"
                return self.inner.handle(phone, message, message_id=message_id)

        with run_service(factory=lambda tenant, store: Held(factory(tenant, store))) as harness:
            response = harness.post(delivery(text_message(MARIA_PHONE, "¿Cuál es mi saldo?")))
            assert response.status_code == 200
            [inbound] = harness.store.messages.history("fibranet", MARIA_PHONE)
            assert inbound.status in ("received", "processing")
            assert harness.graph.sent == []
            gate.set()
            harness.drain()
            assert len(harness.graph.sent) == 1

    def test_an_oversized_delivery_is_refused(self, harness: Harness) -> None:
        response = harness.post(b" " * (MAX_BODY_BYTES + 1))
        assert response.status_code == 413
