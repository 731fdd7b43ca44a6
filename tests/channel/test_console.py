"""The agents' inbox over plain HTTP: sessions, CSRF, tenants kept apart, the handoff rules."""

from __future__ import annotations

import pytest

from tests.assistant.assistant_fakes import JOSE_PHONE, MARIA_PHONE
from tests.channel.conftest import Harness
from tests.channel.console_helpers import Agent
from tests.channel.whatsapp import FIBRA_AGENT, LLANO_AGENT

MARIA = "/console/conversations/584121234567"


def escalate_maria(harness: Harness) -> None:
    harness.say(MARIA_PHONE, "Quiero hablar con un asesor")


@pytest.fixture
def agent(harness: Harness) -> Agent:
    signed = Agent(harness)
    assert signed.sign_in(FIBRA_AGENT).status_code == 303
    return signed


class TestSignIn:
    def test_the_token_becomes_a_signed_httponly_samesite_cookie(self, harness: Harness) -> None:
        visitor = Agent(harness)
        response = visitor.sign_in(FIBRA_AGENT)
        assert response.status_code == 303 and response.headers["location"] == "/console/"
        cookie = response.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/console" in cookie
        assert FIBRA_AGENT not in cookie
        inbox = visitor.get("/console/")
        assert inbox.status_code == 200 and "Agente ana · fibranet" in inbox.text

    @pytest.mark.parametrize("token", ["wrong", "", FIBRA_AGENT + "x", " "])
    def test_an_unknown_token_signs_nobody_in(self, harness: Harness, token: str) -> None:
        visitor = Agent(harness)
        response = visitor.sign_in(token)
        assert response.status_code == 401
        assert "no es de ningún operador" in response.text
        assert visitor.get("/console/").status_code == 303

    @pytest.mark.parametrize("name", ["", "ana maria", "a" * 65, "<script>"])
    def test_a_bad_agent_name_is_refused_with_a_message(self, harness: Harness, name: str) -> None:
        response = Agent(harness).sign_in(FIBRA_AGENT, agent=name)
        assert response.status_code == 400 and "nombre de agente" in response.text
        assert "<script>" not in response.text

    def test_a_forged_or_tampered_cookie_is_no_session(
        self, harness: Harness, agent: Agent
    ) -> None:
        [real] = [c.value for c in agent.jar if c.name == "console_session"]
        assert real
        for forged in [
            real[:-2] + ("xx" if not real.endswith("xx") else "yy"),
            "garbage",
            real.split(".")[0] + ".AAAA.BBBB",
        ]:
            for path in ("/console/", MARIA):
                agent.jar, agent.cookies = [], {"console_session": forged}
                assert agent.get(path).status_code == 303

    def test_signing_out_ends_the_session(self, agent: Agent) -> None:
        agent.get("/console/")
        response = agent.post("/console/signout", {})
        assert response.status_code == 303
        assert 'console_session=""' in response.headers["set-cookie"]
        assert agent.get("/console/").headers["location"] == "/console/signin"


class TestCsrf:
    def test_every_form_without_its_token_is_refused(self, harness: Harness, agent: Agent) -> None:
        escalate_maria(harness)
        agent.get(MARIA)
        for path, fields in [
            (f"{MARIA}/takeover", {}),
            (f"{MARIA}/release", {}),
            (f"{MARIA}/messages", {"text": "hola"}),
            ("/console/signout", {}),
            ("/console/language", {"lang": "en"}),
        ]:
            for forged in ["", "0" * 64]:
                response = agent.post(path, fields, csrf=forged)
                assert response.status_code == 403, path
                assert "caducó" in response.text
        assert harness.store.get("fibranet", MARIA_PHONE).state.value == "waiting_for_human"
        assert agent.get("/console/").status_code == 200

    def test_a_token_of_another_session_does_not_pass(self, harness: Harness, agent: Agent) -> None:
        escalate_maria(harness)
        stolen = agent.csrf
        other = Agent(harness)
        other.sign_in(FIBRA_AGENT, agent="eve")
        assert other.post(f"{MARIA}/takeover", {}, csrf=stolen).status_code == 403

    def test_the_sign_in_form_needs_its_token_too(self, harness: Harness) -> None:
        harness.client.cookies.clear()
        response = harness.client.post(
            "/console/signin", data={"token": FIBRA_AGENT, "agent": "ana"}
        )
        assert response.status_code == 403

    def test_a_body_that_is_not_a_form_is_refused(self, harness: Harness, agent: Agent) -> None:
        escalate_maria(harness)
        as_json = harness.client.post(f"{MARIA}/takeover", json={"csrf": agent.csrf})
        assert as_json.status_code == 415
        huge = harness.client.post(
            f"{MARIA}/messages",
            content=b"text=" + b"a" * 70_000,
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        assert huge.status_code == 413
        not_utf8 = harness.client.post(
            f"{MARIA}/messages",
            content=b"text=%ff&csrf=x",
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        assert not_utf8.status_code == 400


class TestPrivacy:
    @pytest.mark.parametrize(
        "path", ["/console/", "/console/signin", MARIA, "/console/static/console.js"]
    )
    def test_nothing_is_cached_by_the_browser(
        self, harness: Harness, agent: Agent, path: str
    ) -> None:
        escalate_maria(harness)
        response = agent.get(path)
        assert response.headers["cache-control"] == "no-store"
        assert response.headers["referrer-policy"] == "no-referrer"
        assert "script-src 'self'" in response.headers["content-security-policy"]

    def test_another_operators_conversation_answers_like_a_missing_one(
        self, harness: Harness
    ) -> None:
        escalate_maria(harness)
        intruder = Agent(harness)
        intruder.sign_in(LLANO_AGENT, agent="eve")
        inbox = intruder.get("/console/")
        assert "584121234567" not in inbox.text and "asesor" not in inbox.text
        theirs = intruder.get(MARIA)
        missing = intruder.get("/console/conversations/584169990000")
        not_a_phone = intruder.get("/console/conversations/abc")
        assert theirs.status_code == missing.status_code == not_a_phone.status_code == 404
        pages = {r.text.replace(str(r.url.path), "{here}") for r in (theirs, missing, not_a_phone)}
        assert len(pages) == 1, "a missing conversation and another's must look the same"
        for action in ("takeover", "release"):
            assert intruder.post(f"{MARIA}/{action}", {}).status_code == 404
        assert intruder.post(f"{MARIA}/messages", {"text": "hola"}).status_code == 404
        assert harness.store.get("fibranet", MARIA_PHONE).state.value == "waiting_for_human"

    def test_signed_out_nothing_is_looked_up(self, harness: Harness) -> None:
        escalate_maria(harness)
        harness.client.cookies.clear()
        response = harness.client.get(MARIA, follow_redirects=False)
        assert response.status_code == 303
        assert "584121234567" not in response.text


class TestInbox:
    def test_the_waiting_list_shows_reason_summary_in_the_agents_language_and_wait(
        self, harness: Harness, agent: Agent
    ) -> None:
        escalate_maria(harness)
        harness.say(JOSE_PHONE, "cuanto debo")
        spanish = agent.get("/console/").text
        assert "USER_REQUEST" in spanish and "+584121234567" in spanish
        assert "Esperan a una persona" in spanish and " min" in spanish
        assert JOSE_PHONE not in spanish, "a conversation the bot has is not waiting"
        agent.post("/console/language", {"lang": "en", "next": "/console/"})
        english = agent.get("/console/").text
        assert "The customer asked to talk to a person." in english
        assert 'lang="en"' in english

    def test_the_language_switch_only_goes_back_into_the_console(self, agent: Agent) -> None:
        agent.get("/console/")
        away = agent.post("/console/language", {"lang": "en", "next": "//evil.example/"})
        assert away.headers["location"] == "/console/"
        assert agent.post("/console/language", {"lang": "fr"}).status_code == 400

    def test_take_over_write_and_give_back_like_the_api(
        self, harness: Harness, agent: Agent
    ) -> None:
        escalate_maria(harness)
        page = agent.get(MARIA)
        assert "Quiero hablar con un asesor" in page.text and "USER_REQUEST" in page.text
        assert agent.post(f"{MARIA}/takeover", {}).status_code == 303
        assert harness.store.get("fibranet", MARIA_PHONE).agent_id == "ana"
        agent.get(MARIA)
        assert agent.post(f"{MARIA}/messages", {"text": "Hola, soy Ana"}).status_code == 303
        harness.drain()
        assert harness.graph.texts_to(MARIA_PHONE)[-1] == "Hola, soy Ana"
        shown = agent.get(MARIA).text
        assert "Hola, soy Ana" in shown and "sent" in shown
        assert agent.post(f"{MARIA}/release", {}).status_code == 303
        assert harness.store.get("fibranet", MARIA_PHONE).state.value == "bot"

    def test_refusals_of_the_rules_are_a_clear_message_with_their_status(
        self, harness: Harness, agent: Agent
    ) -> None:
        escalate_maria(harness)
        colleague = Agent(harness)
        colleague.sign_in(FIBRA_AGENT, agent="luis")
        colleague.get(MARIA)
        assert colleague.post(f"{MARIA}/takeover", {}).status_code == 303
        agent.sign_in(FIBRA_AGENT)
        agent.get(MARIA)
        taken = agent.post(f"{MARIA}/takeover", {})
        assert taken.status_code == 409
        assert 'role="alert"' in taken.text and "Otro agente (luis)" in taken.text
        assert colleague.post(f"{MARIA}/release", {}).status_code == 303
        colleague.get(MARIA)
        again = colleague.post(f"{MARIA}/release", {})
        assert again.status_code == 409 and "El bot ya tiene" in again.text
        silent = colleague.post(f"{MARIA}/messages", {"text": "hola"})
        assert silent.status_code == 409 and "Toma la conversación" in silent.text
        colleague.post(f"{MARIA}/takeover", {})
        colleague.get(MARIA)
        empty = colleague.post(f"{MARIA}/messages", {"text": "   "})
        assert empty.status_code == 400 and "1 a 4096" in empty.text
        assert harness.graph.texts_to(MARIA_PHONE)[-1] != "hola"
