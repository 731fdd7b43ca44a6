"""The agents' console: the waiting list, take over (the bot goes silent), release, history."""

from __future__ import annotations

import pytest

from tests.assistant.assistant_fakes import JOSE_PHONE, MARIA_PHONE
from tests.channel.conftest import Harness
from tests.channel.whatsapp import LLANO_AGENT, LLANO_NUMBER, LLANO_SECRET, delivery, text_message

MARIA = "/handoff/conversations/%2B584121234567"


def escalate_maria(harness: Harness) -> None:
    harness.say(MARIA_PHONE, "Quiero hablar con un asesor")


class TestAccess:
    @pytest.mark.parametrize("header", [None, "Bearer wrong", "Basic ZmlicmE6eA==", "Bearer "])
    def test_without_an_agent_token_nothing_is_shown(
        self, harness: Harness, header: str | None
    ) -> None:
        headers = {"Authorization": header} if header else {}
        response = harness.client.get("/handoff/conversations", headers=headers)
        assert response.status_code == 401
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["code"] == "unauthorized"
        assert response.headers["www-authenticate"].startswith("Bearer")

    def test_another_operators_conversation_looks_like_no_conversation(
        self, harness: Harness
    ) -> None:
        escalate_maria(harness)
        assert harness.agent("GET", "/handoff/conversations", token=LLANO_AGENT).json() == {
            "conversations": []
        }
        theirs = harness.agent("GET", MARIA, token=LLANO_AGENT)
        missing = harness.agent("GET", "/handoff/conversations/%2B584169990000", token=LLANO_AGENT)
        assert theirs.status_code == missing.status_code == 404
        assert theirs.json()["code"] == missing.json()["code"] == "conversation_not_found"
        taken = harness.agent(
            "POST", f"{MARIA}/takeover", token=LLANO_AGENT, json={"agent_id": "intruder"}
        )
        assert taken.status_code == 404


class TestQueue:
    def test_an_escalated_conversation_waits_with_its_reason_and_summary(
        self, harness: Harness
    ) -> None:
        escalate_maria(harness)
        harness.say(JOSE_PHONE, "cuanto debo")
        [waiting] = harness.agent("GET", "/handoff/conversations").json()["conversations"]
        assert waiting["phone"] == MARIA_PHONE
        assert waiting["state"] == "waiting_for_human"
        escalation = waiting["escalation"]
        assert escalation["reason"] == "USER_REQUEST"
        assert escalation["agent_summary"]["en"].startswith(
            "The customer asked to talk to a person."
        )
        assert "+584121234567" in escalation["agent_summary"]["es"]
        assert escalation["context"]["message"] == "Quiero hablar con un asesor"

    def test_the_list_can_show_another_state(self, harness: Harness) -> None:
        harness.say(JOSE_PHONE, "cuanto debo")
        bots = harness.agent("GET", "/handoff/conversations?state=bot").json()["conversations"]
        assert [c["phone"] for c in bots] == [JOSE_PHONE]
        assert bots[0]["escalation"] is None

    def test_an_unknown_state_is_a_clear_error(self, harness: Harness) -> None:
        response = harness.agent("GET", "/handoff/conversations?state=asleep")
        assert response.status_code == 400
        assert response.json()["code"] == "invalid_state"
        assert "waiting_for_human" in response.json()["detail"]


class TestTakeOverAndRelease:
    def test_taken_over_the_bot_is_silent_and_released_it_answers_again(
        self, harness: Harness
    ) -> None:
        escalate_maria(harness)
        taken = harness.agent("POST", f"{MARIA}/takeover", json={"agent_id": "ana"})
        assert taken.status_code == 200
        assert (taken.json()["state"], taken.json()["agent_id"]) == ("human_active", "ana")
        assert harness.agent("GET", "/handoff/conversations").json()["conversations"] == []

        sent_before = len(harness.graph.sent)
        harness.say(MARIA_PHONE, "¿Cuál es mi saldo?")
        assert len(harness.graph.sent) == sent_before, "the bot said nothing"

        released = harness.agent("POST", f"{MARIA}/release")
        assert (released.status_code, released.json()["state"]) == (200, "bot")
        harness.say(MARIA_PHONE, "¿Cuál es mi saldo?")
        assert "USD 38,28" in harness.graph.texts_to(MARIA_PHONE)[-1]

    def test_the_history_shows_both_sides_and_the_escalations(self, harness: Harness) -> None:
        escalate_maria(harness)
        harness.agent("POST", f"{MARIA}/takeover", json={"agent_id": "ana"})
        harness.say(MARIA_PHONE, "¿hola?")
        detail = harness.agent("GET", "/handoff/conversations/584121234567").json()
        assert detail["state"] == "human_active"
        assert [e["reason"] for e in detail["escalations"]] == ["USER_REQUEST"]
        assert [(m["direction"], m["text"][:6]) for m in detail["messages"]] == [
            ("in", "Quiero"),
            ("out", "Claro,"),
            ("in", "¿hola?"),
        ]
        assert detail["messages"][1]["status"] == "sent"

    def test_a_conversation_taken_by_one_agent_is_not_taken_by_another(
        self, harness: Harness
    ) -> None:
        escalate_maria(harness)
        harness.agent("POST", f"{MARIA}/takeover", json={"agent_id": "ana"})
        again = harness.agent("POST", f"{MARIA}/takeover", json={"agent_id": "ana"})
        other = harness.agent("POST", f"{MARIA}/takeover", json={"agent_id": "luis"})
        assert again.status_code == 200
        assert other.status_code == 409
        assert other.json()["code"] == "already_taken"
        assert "ana" in other.json()["detail"]

    def test_releasing_a_conversation_the_bot_has_is_a_conflict(self, harness: Harness) -> None:
        harness.say(MARIA_PHONE, "hola")
        response = harness.agent("POST", f"{MARIA}/release")
        assert (response.status_code, response.json()["code"]) == (409, "not_handed_off")

    @pytest.mark.parametrize(
        ("path", "body", "status", "code"),
        [
            (f"{MARIA}/takeover", {}, 400, "invalid_request"),
            (f"{MARIA}/takeover", {"agent_id": "a b"}, 400, "invalid_request"),
            (f"{MARIA}/takeover", {"agent_id": 7}, 400, "invalid_request"),
            (
                "/handoff/conversations/not-a-phone/takeover",
                {"agent_id": "ana"},
                400,
                "invalid_phone",
            ),
            (
                "/handoff/conversations/%2B584169990000/takeover",
                {"agent_id": "ana"},
                404,
                "conversation_not_found",
            ),
            ("/handoff/conversations/%2B584169990000/release", None, 404, "conversation_not_found"),
        ],
    )
    def test_bad_requests_are_specific_problems(
        self, harness: Harness, path: str, body: object, status: int, code: str
    ) -> None:
        escalate_maria(harness)
        response = harness.agent("POST", path, json=body)
        assert (response.status_code, response.json()["code"]) == (status, code)

    def test_a_body_that_is_not_json_is_invalid(self, harness: Harness) -> None:
        escalate_maria(harness)
        response = harness.agent("POST", f"{MARIA}/takeover", content=b"agent=ana")
        assert response.json()["code"] == "invalid_request"


class TestAgentWrites:
    def test_the_agent_who_took_over_writes_through_the_same_number(self, harness: Harness) -> None:
        escalate_maria(harness)
        harness.agent("POST", f"{MARIA}/takeover", json={"agent_id": "ana"})
        response = harness.agent(
            "POST", f"{MARIA}/messages", json={"text": "Hola María, soy Ana. Reviso tu factura."}
        )
        harness.drain()
        assert response.status_code == 202
        assert response.json()["status"] == "pending"
        last = harness.graph.sent[-1]
        assert (last["text"], last["number"]) == (
            "Hola María, soy Ana. Reviso tu factura.",
            "100000000000001",
        )
        history = harness.agent("GET", MARIA).json()["messages"]
        assert (history[-1]["direction"], history[-1]["status"]) == ("out", "sent")

    def test_writing_without_taking_over_is_a_conflict(self, harness: Harness) -> None:
        escalate_maria(harness)
        response = harness.agent("POST", f"{MARIA}/messages", json={"text": "Hola"})
        assert (response.status_code, response.json()["code"]) == (409, "not_taken_over")
        assert len(harness.graph.sent) == 1, "only the bot's hand-off notice"

    @pytest.mark.parametrize("body", [{}, {"text": "   "}, {"text": "x" * 4097}, {"text": 5}])
    def test_an_empty_or_oversized_text_is_invalid(self, harness: Harness, body: object) -> None:
        escalate_maria(harness)
        harness.agent("POST", f"{MARIA}/takeover", json={"agent_id": "ana"})
        response = harness.agent("POST", f"{MARIA}/messages", json=body)
        assert (response.status_code, response.json()["code"]) == (400, "invalid_request")

    def test_an_agent_message_that_cannot_be_delivered_is_reported(self, harness: Harness) -> None:
        escalate_maria(harness)
        harness.agent("POST", f"{MARIA}/takeover", json={"agent_id": "ana"})
        harness.graph.failures = [400]
        harness.agent("POST", f"{MARIA}/messages", json={"text": "Hola"})
        harness.drain()
        detail = harness.agent("GET", MARIA).json()
        assert detail["state"] == "human_active", "still the agent's"
        assert detail["escalations"][-1]["reason"] == "DELIVERY_FAILED"
        assert detail["messages"][-1]["status"] == "failed"


def test_each_operator_sees_only_its_own_queue(harness: Harness) -> None:
    escalate_maria(harness)
    harness.post(
        delivery(text_message("+584269998877", "quiero un agente"), number=LLANO_NUMBER),
        secret=LLANO_SECRET,
    )
    harness.drain()
    fibra = harness.agent("GET", "/handoff/conversations").json()["conversations"]
    llano = harness.agent("GET", "/handoff/conversations", token=LLANO_AGENT).json()
    assert [c["phone"] for c in fibra] == [MARIA_PHONE]
    assert [c["phone"] for c in llano["conversations"]] == ["+584269998877"]
