"""Scenario states through the pytest handle, as a user's suite would use them (pytester)."""

from __future__ import annotations

import pytest

RUN = ("-p", "no:cacheprovider", "-q")

SUITE = '''
import pytest

from billing_toolkit.simulator.faults.registry import UnknownState
from billing_toolkit.simulator.faults.scenario import ScenarioError

SCENARIO = """
name: payment-then-outage
initial: healthy
states:
  healthy:
    on: [{operation: createPayment, status: 201, to: degraded}]
  degraded:
    rules: [{operation: getBalance, kind: http_503}]
    on: [{operation: getBalance, count: 3, to: healthy}]
"""


def balance(sim, account):
    return sim.http.get(f"/v1/customers/{account}/balance").status_code


def test_a_payment_starts_the_outage_and_three_calls_end_it(billing_sim):
    billing_sim.faults.load_scenario(SCENARIO)
    account = billing_sim.sample("open_invoice")["account_number"]
    assert billing_sim.faults.state("payment-then-outage") == "healthy"
    paid = billing_sim.http.post(
        f"/v1/customers/{account}/payments",
        headers={"Idempotency-Key": "handle-1"},
        json={"amount": "10.00", "currency": "USD", "method": "pago_movil",
              "reference": "004512873301"},
    )
    assert paid.status_code == 201
    assert billing_sim.faults.state("payment-then-outage") == "degraded"
    assert [balance(billing_sim, account) for _ in range(4)] == [503, 503, 503, 200]
    assert billing_sim.faults.state("payment-then-outage") == "healthy"


def test_a_test_can_start_mid_story(billing_sim):
    billing_sim.faults.load_scenario(SCENARIO)
    billing_sim.faults.set_state("payment-then-outage", "degraded")
    account = billing_sim.sample("open_invoice")["account_number"]
    assert balance(billing_sim, account) == 503
    [listed] = billing_sim.faults.scenarios()
    assert listed["transitions"] == [
        {"operation": "getBalance", "count": 3, "to": "healthy", "seen": 1}
    ]
    with pytest.raises(UnknownState, match="states: degraded, healthy"):
        billing_sim.faults.set_state("payment-then-outage", "down")
    with pytest.raises(KeyError):
        billing_sim.faults.state("no-such-scenario")


def test_a_broken_scenario_names_field_and_line(billing_sim):
    with pytest.raises(ScenarioError, match=r"line 6: states.healthy.on\\[0\\].status: "
                                            r"createPayment does not document 200"):
        billing_sim.faults.load_scenario(SCENARIO.replace("status: 201", "status: 200"))
    assert billing_sim.faults.scenarios() == []


def test_states_are_gone_after_the_test(billing_sim):
    assert billing_sim.faults.scenarios() == []


def test_socket_kinds_in_a_state_need_the_server_fixture(billing_sim):
    from billing_toolkit.pytest_plugin import LoopbackRequired

    with pytest.raises(LoopbackRequired):
        billing_sim.faults.load_scenario(SCENARIO.replace("kind: http_503", "kind: timeout"))
'''


def test_scenario_states_in_a_users_suite(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_handle=SUITE)
    result = pytester.runpytest_inprocess(*RUN)
    result.assert_outcomes(passed=5)
