"""Hostile bodies the service must answer with a 4xx problem (never a 5xx, never a stuck
delivery): half an emoji in a message, JSON nested 100 000 deep, bodies over the limit — on
the webhook and on the agents' handoff API alike."""

from __future__ import annotations

import json
from typing import Any

import pytest

from billing_toolkit.assistant.channel.handoff_api import MAX_BODY_BYTES as HANDOFF_LIMIT
from billing_toolkit.assistant.channel.json_body import MAX_DEPTH, nesting_depth
from billing_toolkit.assistant.channel.webhook import MAX_BODY_BYTES
from billing_toolkit.assistant.store import SqlConversationStore
from billing_toolkit.assistant.store.storable import storable
from tests.assistant.assistant_fakes import ANA_PHONE, JOSE_PHONE, MARIA_PHONE
from tests.channel.conftest import Harness
from tests.channel.whatsapp import FIBRA_NUMBER, delivery, media_message, text_message

HALF_EMOJI = b"\\ud83d"
"""A lone high surrogate as the platform writes it in JSON: valid JSON, not valid text."""


def with_raw(body: bytes, marker: str, raw: bytes) -> bytes:
    """`body` with the text `marker` replaced by raw JSON string content (an escape)."""
    assert marker.encode() in body
    return body.replace(marker.encode(), raw)


def poison_delivery() -> bytes:
    """Four messages of three subscribers; two carry text no database stores as written."""
    body = delivery(
        text_message(MARIA_PHONE, "hola HALF", "wamid.POISON-1"),
        text_message(JOSE_PHONE, "¿Cuál es mi saldo?", "wamid.CLEAN-1"),
        text_message(ANA_PHONE, "hola NUL", "wamid.POISON-2"),
        media_message(JOSE_PHONE, "audio", "wamid.CLEAN-2"),
    )
    return with_raw(with_raw(body, "HALF", HALF_EMOJI), "NUL", b"\\u0000")


def inbound(harness: Harness, phone: str) -> list[Any]:
    return [e for e in harness.store.messages.history("fibranet", phone) if e.direction == "in"]


class TestPoisonMessages:
    def test_every_message_of_a_delivery_with_half_an_emoji_is_stored_and_answered(
        self, harness: Harness
    ) -> None:
        response = harness.post(poison_delivery())
        harness.drain()
        assert response.status_code == 200
        assert response.json() == {"stored": 4, "duplicates": 0, "ignored": 0, "rejected": 0}
        [maria] = inbound(harness, MARIA_PHONE)
        [ana] = inbound(harness, ANA_PHONE)
        assert maria.text == "hola \ufffd" and ana.text == "hola \ufffd"
        assert {e.status for e in (maria, ana, *inbound(harness, JOSE_PHONE))} == {"done"}
        for phone in (MARIA_PHONE, ANA_PHONE):
            assert len(harness.graph.texts_to(phone)) == 1, "answered (or told a person will)"
        assert len(harness.graph.texts_to(JOSE_PHONE)) == 2  # the balance, and "text only"

    def test_a_redelivered_poison_delivery_is_acknowledged_as_duplicates(
        self, harness: Harness
    ) -> None:
        harness.post(poison_delivery())
        harness.drain()
        again = harness.post(poison_delivery())
        harness.drain()
        assert again.status_code == 200
        assert again.json() == {"stored": 0, "duplicates": 4, "ignored": 0, "rejected": 0}
        assert len(harness.graph.sent) == 4

    def test_a_message_the_store_refuses_does_not_keep_the_others_out(
        self, harness: Harness, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        receive = harness.store.messages.receive
        refused = {"wamid.CLEAN-1"}

        def flaky(tenant: str, channel: str, message_id: str, *rest: Any) -> Any:
            if message_id in refused:
                raise OSError("disk full")
            return receive(tenant, channel, message_id, *rest)

        monkeypatch.setattr(harness.store.messages, "receive", flaky)
        first = harness.post(poison_delivery())
        harness.drain()
        assert first.status_code == 503 and first.headers["Retry-After"] == "5"
        assert first.json()["code"] == "store_unavailable"
        assert "1 of 4 message(s) could not be stored (3 stored" in first.json()["detail"]
        assert len(inbound(harness, MARIA_PHONE)) == 1 and len(inbound(harness, ANA_PHONE)) == 1
        refused.clear()
        again = harness.post(poison_delivery())
        harness.drain()
        assert again.json() == {"stored": 1, "duplicates": 3, "ignored": 0, "rejected": 0}
        assert len(inbound(harness, JOSE_PHONE)) == 2


def test_unstorable_text_is_repaired_on_every_backend(backend_store: SqlConversationStore) -> None:
    record = backend_store.messages.receive(
        "fibranet",
        FIBRA_NUMBER,
        "wamid.\ud800",
        MARIA_PHONE,
        "text",
        "hola \ud83d y \ud83d\ude00 y \x00",
    )
    assert record is not None
    assert record.text == "hola \ufffd y \U0001f600 y \ufffd"
    assert record.message_id == "wamid.\ufffd"
    [reply] = backend_store.messages.close(record, ["eco \udc00"])
    assert reply.text == "eco \ufffd"


@pytest.mark.parametrize("text", ["", "hola", "ñandú 😀", "línea\nnueva"])
def test_storable_text_is_kept_as_written(text: str) -> None:
    assert storable(text) == text


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


class TestNesting:
    @pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 100_000])
    def test_a_signed_delivery_nested_too_deep_is_400(self, harness: Harness, depth: int) -> None:
        response = harness.post(nested(depth))
        assert response.status_code == 400
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["code"] == "malformed_payload"
        assert f"nests {depth} levels deep" in response.json()["detail"]

    def test_deep_nesting_inside_a_real_delivery_is_400(self, harness: Harness) -> None:
        payload = json.loads(delivery(text_message(MARIA_PHONE, "hola")))
        payload["entry"][0]["extra"] = json.loads(nested(200))
        response = harness.post(json.dumps(payload).encode())
        assert (response.status_code, response.json()["code"]) == (400, "malformed_payload")

    @pytest.mark.parametrize(
        ("body", "depth"),
        [
            (b'{"a": "[[[[[[", "b": ["\\"[[["]}', 2),
            (b'"just a string with {{{ ]]]"', 0),
            (b'[[1], {"k": [[]]}]', 4),
            (b"", 0),
        ],
    )
    def test_brackets_inside_strings_do_not_count(self, body: bytes, depth: int) -> None:
        assert nesting_depth(body) == depth

    def test_a_webhook_body_over_the_limit_is_refused_by_its_declared_length(
        self, harness: Harness
    ) -> None:
        response = harness.client.post(
            "/webhook",
            content=b"{}",
            headers={"Content-Length": str(MAX_BODY_BYTES + 1), "X-Hub-Signature-256": "sha256=0"},
        )
        assert response.status_code == 413
        assert response.json()["code"] == "payload_too_large"


HANDOFF_BODIES = [
    pytest.param(nested(30_000), 400, "invalid_request", id="nested-30000"),
    pytest.param(
        b'{"agent_id": ' + nested(MAX_DEPTH) + b"}", 400, "invalid_request", id="nested-in-field"
    ),
    pytest.param(b"{not json", 400, "invalid_request", id="not-json"),
    pytest.param(b"\xff\xfe", 400, "invalid_request", id="not-utf8"),
    pytest.param(
        b'{"agent_id": "' + b"a" * HANDOFF_LIMIT + b'"}', 413, "payload_too_large", id="oversized"
    ),
]


class TestHandoffBodies:
    @pytest.fixture
    def taken(self, harness: Harness) -> Harness:
        harness.say(MARIA_PHONE, "quiero hablar con una persona")
        harness.agent(
            "POST", f"/handoff/conversations/{MARIA_PHONE}/takeover", json={"agent_id": "ana"}
        )
        return harness

    @pytest.mark.parametrize("action", ["takeover", "messages"])
    @pytest.mark.parametrize(("body", "status", "code"), HANDOFF_BODIES)
    def test_a_hostile_body_is_a_4xx_problem(
        self, taken: Harness, action: str, body: bytes, status: int, code: str
    ) -> None:
        response = taken.agent(
            "POST", f"/handoff/conversations/{MARIA_PHONE}/{action}", content=body
        )
        assert (response.status_code, response.json()["code"]) == (status, code)
        assert response.headers["content-type"] == "application/problem+json"

    @pytest.mark.parametrize("raw", [HALF_EMOJI, b"\\udc00", b"\\u0000"])
    def test_an_agent_text_that_cannot_be_sent_as_written_is_400(
        self, taken: Harness, raw: bytes
    ) -> None:
        body = b'{"text": "Hola ' + raw + b'"}'
        response = taken.agent(
            "POST", f"/handoff/conversations/{MARIA_PHONE}/messages", content=body
        )
        assert (response.status_code, response.json()["code"]) == (400, "invalid_request")
        assert "surrogate" in response.json()["detail"]
        assert taken.store.messages.pending() == []

    def test_without_a_token_the_body_is_not_read(self, harness: Harness) -> None:
        response = harness.client.post(
            f"/handoff/conversations/{MARIA_PHONE}/takeover", content=nested(100_000)
        )
        assert response.status_code == 401


class TestMalformedMessages:
    def test_a_malformed_message_never_holds_back_the_others_of_its_delivery(
        self, harness: Harness
    ) -> None:
        """A sender that is no phone number cannot be stored or answered; redelivering would
        not mend it. It is dropped (and counted), and the good message beside it goes on."""
        body = delivery(
            text_message(JOSE_PHONE, "¿Cuál es mi saldo?", "wamid.GOOD-1"),
            text_message(MARIA_PHONE, "hola", "wamid.BAD-1"),
        )
        body = body.replace(MARIA_PHONE.lstrip("+").encode(), b"not-a-phone")
        response = harness.post(body)
        harness.drain()
        assert response.status_code == 200
        assert response.json() == {"stored": 1, "duplicates": 0, "ignored": 0, "rejected": 1}
        [jose] = inbound(harness, JOSE_PHONE)
        assert jose.status == "done" and len(harness.graph.texts_to(JOSE_PHONE)) == 1

    def test_a_delivery_of_only_malformed_messages_is_refused_naming_where(
        self, harness: Harness
    ) -> None:
        body = delivery(text_message(MARIA_PHONE, "hola", "wamid.BAD-2"))
        body = body.replace(MARIA_PHONE.lstrip("+").encode(), b"not-a-phone")
        response = harness.post(body)
        assert (response.status_code, response.json()["code"]) == (400, "malformed_payload")
        assert "from is not a phone number" in response.json()["detail"]
