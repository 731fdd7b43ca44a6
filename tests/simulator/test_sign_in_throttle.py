"""The simulator's two doors to the admin token — the bearer on `/_sim` and the QA console's
sign-in — slow down a guesser: after a few wrong tokens from one address it gets 429 with
`Retry-After` (on the fault clock, which the test moves), the right token from another
address still works at once, and signing out ends every copy of the console's cookie.
Every console answer, redirects and errors included, carries the private headers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from billing_toolkit.webconsole.throttle import FREE_FAILURES
from tests.simulator.conftest import ADMIN, Sim, small_config
from tests.simulator.test_qa_console import CONSOLE, TOKEN, Console
from tests.webconsole.private_headers import assert_private_everywhere

WRONG = {"Authorization": "Bearer not-the-admin-token"}


@pytest.fixture
def sim() -> Iterator[Sim]:
    simulator = Sim(small_config())
    with simulator.client:
        yield simulator


def test_wrong_admin_tokens_get_429_with_retry_after_and_waiting_costs_minutes(sim: Sim) -> None:
    attacker = TestClient(sim.app, client=("203.0.113.9", 4000))
    for _ in range(FREE_FAILURES):
        assert attacker.get("/_sim/faults", headers=WRONG).status_code == 401
    spent = 0
    for _ in range(10):
        refused = attacker.get("/_sim/faults", headers=ADMIN)  # even the right one, unchecked
        assert refused.status_code == 429
        assert refused.headers["content-type"] == "application/problem+json"
        wait = int(refused.headers["Retry-After"])
        sim.clock.advance(wait)
        spent += wait
        assert attacker.get("/_sim/faults", headers=WRONG).status_code == 401
    assert spent >= 2**10 - 1  # ten more guesses: over 17 minutes of waiting
    colleague = TestClient(sim.app, client=("198.51.100.4", 4000))
    assert colleague.get("/_sim/faults", headers=ADMIN).status_code == 200


def test_the_console_sign_in_is_throttled_with_the_bearer(sim: Sim) -> None:
    visitor = Console(sim)
    visitor.client = TestClient(sim.app, client=("203.0.113.10", 4000))
    visitor.page()
    for _ in range(FREE_FAILURES):
        assert visitor.post("/sign-in", token="guess").status_code == 401
    refused = visitor.post("/sign-in", token=TOKEN)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert "Too many failed sign-ins" in refused.text or "Demasiados" in refused.text
    assert TestClient(sim.app, client=("203.0.113.10", 1)).get("/_sim/faults", headers=ADMIN
                                                               ).status_code == 429  # fmt: skip


def test_a_signed_out_cookie_copy_no_longer_works(sim: Sim) -> None:
    console = Console(sim).sign_in()
    copied = dict(console.client.cookies)
    assert console.post("/sign-out").status_code == 303
    thief = TestClient(sim.app, cookies=copied)
    assert 'name="token"' in thief.get(f"{CONSOLE}/").text  # the sign-in page, not the console


def test_every_console_answer_carries_the_private_headers(sim: Sim) -> None:
    assert_private_everywhere(sim.client, CONSOLE, "/sign-out")
