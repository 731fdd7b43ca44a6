"""The agents' doors against a guesser: wrong agent tokens on the inbox's sign-in and on the
handoff bearer get 429 with `Retry-After` after a few failures (waits computed on the store's
clock, which the test holds and moves), the right token from another address still works at
once, the counters and sessions live in the store every replica shares, and signing out
ends every copy of the cookie. Every inbox answer carries the private headers."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient

from billing_toolkit.assistant.store import open_conversation_store
from billing_toolkit.webconsole.throttle import FREE_FAILURES
from tests.channel.conftest import Harness, RunService
from tests.channel.console_helpers import Agent
from tests.channel.whatsapp import FIBRA_AGENT
from tests.webconsole.private_headers import assert_private_everywhere


class HeldClock:
    """The store's clock, still until the test moves it."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> HeldClock:
    return HeldClock()


@pytest.fixture
def guarded(run_service: RunService, clock: HeldClock) -> Iterator[Harness]:
    store = open_conversation_store("sqlite://", now=clock)
    with run_service(store=store) as harness:
        yield harness
    store.close()


def _from(harness: Harness, address: str) -> TestClient:
    """A client of the same running app from another address (another agent's machine)."""
    return TestClient(harness.client.app, base_url="http://assistant.test", client=(address, 1))


def test_wrong_agent_tokens_on_the_sign_in_cost_hours_and_others_sign_in_at_once(
    guarded: Harness, clock: HeldClock
) -> None:
    attacker = Agent(guarded)
    attacker.client = _from(guarded, "203.0.113.9")
    waited, refused = 0, 0
    for _ in range(40):
        answer = attacker.sign_in("guess-token", agent="ana")
        if answer.status_code == 429:
            refused += 1
            waited += int(answer.headers["Retry-After"])
            clock.advance(int(answer.headers["Retry-After"]))
            answer = attacker.sign_in("guess-token", agent="ana")
        assert answer.status_code == 401
    assert refused == 40 - FREE_FAILURES and waited > 3600
    assert attacker.sign_in(FIBRA_AGENT, agent="ana").status_code == 429  # unchecked while waiting
    ana = Agent(guarded)
    ana.client = _from(guarded, "198.51.100.4")
    assert ana.sign_in(FIBRA_AGENT, agent="ana").status_code == 303


def test_wrong_bearers_on_the_handoff_api_get_429_and_others_still_get_in(guarded: Harness) -> None:
    attacker, colleague = _from(guarded, "203.0.113.9"), _from(guarded, "198.51.100.4")
    wrong = {"Authorization": "Bearer guess-token"}
    for _ in range(FREE_FAILURES):
        assert attacker.get("/handoff/conversations", headers=wrong).status_code == 401
    refused = attacker.get(
        "/handoff/conversations", headers={"Authorization": f"Bearer {FIBRA_AGENT}"}
    )
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
    assert refused.json()["code"] == "too_many_failures"
    right = {"Authorization": f"Bearer {FIBRA_AGENT}"}
    assert colleague.get("/handoff/conversations", headers=right).status_code == 200


def test_a_signed_out_cookie_copy_no_longer_signs_in(guarded: Harness) -> None:
    ana = Agent(guarded)
    assert ana.sign_in(FIBRA_AGENT).status_code == 303
    copied = list(ana.jar)
    assert ana.get("/console/").status_code == 200
    assert ana.post("/console/signout", {}).status_code == 303
    thief = Agent(guarded)
    thief.jar = copied
    answer = thief.get("/console/")
    assert answer.status_code == 303 and answer.headers["location"].endswith("/console/signin")


def test_every_inbox_answer_carries_the_private_headers(harness: Harness) -> None:
    assert_private_everywhere(harness.client, "/console", "/signout")


@pytest.mark.parametrize("backend", ["sqlite-file", "postgresql"])
def test_replicas_share_failures_and_sessions(
    backend: str, request: pytest.FixtureRequest, tmp_path: Any
) -> None:
    dsn = (
        str(request.getfixturevalue("pg_dsn"))
        if backend == "postgresql"
        else f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    )
    clock = HeldClock()
    one, two = open_conversation_store(dsn, now=clock), open_conversation_store(dsn, now=clock)
    try:
        now = clock().timestamp()
        one.sign_ins.add_failure("address:a", now, now - 10)
        two.sign_ins.add_failure("address:a", now, now - 10)
        assert one.sign_ins.failures("address:a") == (2, now)
        two.sign_ins.add_failure("address:a", now + 100, now + 50)  # the old ones forgotten
        assert one.sign_ins.failures("address:a")[0] == 1
        one.sign_ins.open("sid-1", now + 60)
        assert two.sign_ins.is_open("sid-1", now) and not two.sign_ins.is_open("sid-1", now + 61)
        two.sign_ins.close("sid-1")
        assert not one.sign_ins.is_open("sid-1", now)
    finally:
        one.close()
        two.close()
