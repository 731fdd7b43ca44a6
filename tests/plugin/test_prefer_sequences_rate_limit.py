"""Prefer, sequences and the rate limiter through the pytest handle, as a user's suite
would use them (via pytester), in-process and on loopback."""

from __future__ import annotations

import pytest

RUN = ("-p", "no:cacheprovider", "-q")

SUITE = """
import pytest

from billing_toolkit.client import RetryPolicy
from billing_toolkit.client.errors import RateLimitError, ServerError
from billing_toolkit.simulator.faults.rules import FaultRuleError
from billing_toolkit.simulator.rate_limit import RateLimitError as PolicyError


def balance_path(sim):
    return f"/v1/customers/{sim.sample('open_invoice')['account_number']}/balance"


def test_prefer_is_off_until_allowed(billing_sim):
    assert billing_sim.http.get(balance_path(billing_sim), headers={"Prefer": "code=404"}).status_code == 200
    billing_sim.allow_prefer()
    chosen = billing_sim.http.get(balance_path(billing_sim), headers={"Prefer": "code=404"})
    assert chosen.status_code == 404 and chosen.json()["code"] == "customer_not_found"
    refused = billing_sim.http.get(balance_path(billing_sim), headers={"Prefer": "code=418"})
    assert refused.status_code == 400 and "codes: 200" in refused.json()["detail"]


def test_a_client_retries_through_fail_twice_then_succeed(billing_sim):
    billing_sim.faults.sequence(
        [{"kind": "http_503", "times": 2, "retry_after_s": 0}, {"kind": "pass"}],
        operation="getBalance",
    )
    account = billing_sim.sample("open_invoice")["account_number"]
    client = billing_sim.client_for("fibranet", retry=RetryPolicy(max_attempts=3, base_delay=0.01))
    assert client.get_balance(account).account_number == account
    assert len(billing_sim.faults.events("http_503")) == 2


def test_a_bad_step_names_its_field(billing_sim):
    with pytest.raises(FaultRuleError, match=r"fault\\.steps\\[0\\]\\.kind: unknown fault kind"):
        billing_sim.faults.sequence([{"kind": "boom"}], operation="getBalance")


def test_socket_steps_need_the_server_fixture(billing_sim):
    from billing_toolkit.pytest_plugin import LoopbackRequired

    with pytest.raises(LoopbackRequired):
        billing_sim.faults.sequence([{"kind": "timeout"}], operation="getBalance")


def test_the_rate_limiter_meets_the_client(billing_sim):
    billing_sim.rate_limits.set("2/min")
    account = billing_sim.sample("open_invoice")["account_number"]
    client = billing_sim.client_for("fibranet", retry=RetryPolicy(max_attempts=1))
    client.get_balance(account)
    client.get_balance(account)
    with pytest.raises(RateLimitError) as raised:
        client.get_balance(account)
    assert raised.value.retry_after == 30
    assert billing_sim.rate_limits.list() == [{"limit": "2/min", "requests": 2, "window_s": 60.0}]
    with pytest.raises(PolicyError, match=r"limits\\[0\\]: unknown unit 'fortnight'"):
        billing_sim.rate_limits.set("2/fortnight")
    billing_sim.reset()
    assert billing_sim.rate_limits.list() == []


def test_the_limiter_on_loopback(billing_sim_server):
    billing_sim_server.rate_limits.set("getBalance=1/min")
    path = balance_path(billing_sim_server)
    assert billing_sim_server.http.get(path).status_code == 200
    refused = billing_sim_server.http.get(path)
    assert refused.status_code == 429 and refused.headers["retry-after"] == "60"
    assert refused.headers["ratelimit"] == '"getBalance";r=0;t=60'
"""


def test_prefer_sequences_and_the_limiter_in_a_users_suite(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_handle=SUITE)
    result = pytester.runpytest_inprocess(*RUN)
    result.assert_outcomes(passed=6)
