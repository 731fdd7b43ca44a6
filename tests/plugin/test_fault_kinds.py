"""Every fault kind through the plugin, as a user's suite would inject it (via pytester).

In-process: the HTTP kinds act, the socket kinds are refused naming `billing_sim_server`
(or emulated on request). On loopback: the socket kinds act on the real connection.
"""

from __future__ import annotations

import pytest

RUN = ("-p", "no:cacheprovider", "-q")

FAULT_SUITE = """
import httpx
import pytest

from billing_toolkit.client import RetryPolicy, Timeouts
from billing_toolkit.client.errors import (
    APIConnectionError,
    APITimeoutError,
    CustomerNotFoundError,
    MalformedResponseError,
    RateLimitError,
    ServerError,
)
from billing_toolkit.simulator.faults.kinds import KINDS
from billing_toolkit.pytest_plugin import SOCKET_KINDS, LoopbackRequired

FAST = {"retry": RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=0.02)}
SHORT = {"timeouts": Timeouts(connect=1.0, read=0.3, total=2.0), **FAST}

IN_PROCESS = {
    # kind: (parameters, what the client raises (None: the real answer), requests made)
    "latency_fixed": ({"ms": 250}, None, 1),
    "latency_uniform": ({"min_ms": 10, "max_ms": 40}, None, 1),
    "latency_lognormal": ({"median_ms": 20, "sigma": 0.5}, None, 1),
    "http_500": ({}, ServerError, 1),
    "http_502": ({}, ServerError, 3),
    "http_503": ({"retry_after_s": 0}, ServerError, 3),
    "http_504": ({}, ServerError, 3),
    "http_429": ({"retry_after_s": 0}, RateLimitError, 3),
    "not_found": ({}, CustomerNotFoundError, 1),
    "empty_response": ({}, MalformedResponseError, 1),
    "malformed_json": ({}, MalformedResponseError, 1),
}
EMULATED = {
    "timeout": ({}, APITimeoutError, 1),
    "connection_reset": ({}, APIConnectionError, 3),
    "connection_drop": ({}, APIConnectionError, 3),
    "truncated_body": ({}, APIConnectionError, 3),
    "slow_drip": ({}, None, 1),
}
ON_A_SOCKET = {
    "timeout": ({"hold_s": 1.0}, APITimeoutError, 1),
    "connection_reset": ({}, APIConnectionError, 3),
    "connection_drop": ({}, APIConnectionError, 3),
    "truncated_body": ({"fraction": 0.5}, APIConnectionError, 3),
    "slow_drip": ({"chunk_bytes": 8, "interval_ms": 500}, APITimeoutError, 1),
    "http_503": ({"retry_after_s": 0}, ServerError, 3),
}


def inject(sim, kind, params, raised, requests, **settings):
    account = sim.sample("open_invoice")["account_number"]
    sim.faults.add(operation="getBalance", kind=kind, **params)
    client = sim.client_for(sim.options.tenant, **settings)
    if raised is None:
        assert client.get_balance(account).account_number == account
    else:
        with pytest.raises(raised):
            client.get_balance(account)
    assert [event.kind for event in sim.faults.events()] == [kind] * requests


def test_the_catalogue_is_covered():
    assert set(IN_PROCESS) | SOCKET_KINDS == set(KINDS)
    assert set(EMULATED) == SOCKET_KINDS <= set(ON_A_SOCKET)


@pytest.mark.parametrize("kind", sorted(IN_PROCESS))
def test_in_process(billing_sim, kind):
    inject(billing_sim, kind, *IN_PROCESS[kind], **FAST)


def test_latency_moves_virtual_time_instead_of_waiting(billing_sim):
    account = billing_sim.sample("open_invoice")["account_number"]
    billing_sim.faults.add(operation="getBalance", kind="latency_fixed", ms=3000, times=1)
    billing_sim.client.get_balance(account)
    billing_sim.faults.add(operation="getBalance", kind="latency_fixed", ms=30000)
    with pytest.raises(APITimeoutError):  # past the client's 10 s budget, in virtual time
        billing_sim.client.get_balance(account)
    assert billing_sim.fault_clock.slept == [3.0, 30.0]


def test_times_limits_a_rule_and_clear_removes_it(billing_sim):
    account = billing_sim.sample("open_invoice")["account_number"]
    billing_sim.faults.add(operation="getBalance", kind="http_503", times=2, retry_after_s=0)
    billing_sim.client.get_balance(account)  # two 503s, the third attempt answers
    assert len(billing_sim.faults.events("http_503")) == 2
    billing_sim.faults.add(operation="getBalance", kind="http_500")
    billing_sim.faults.clear()
    billing_sim.client.get_balance(account)
    assert len(billing_sim.faults.events()) == 2


@pytest.mark.parametrize("kind", sorted(SOCKET_KINDS))
def test_socket_kinds_are_refused_in_process(billing_sim, kind):
    with pytest.raises(LoopbackRequired, match="use the billing_sim_server fixture"):
        billing_sim.faults.add(operation="getBalance", kind=kind)
    assert billing_sim.faults.rules() == []


def test_a_scenario_with_a_socket_kind_is_refused_whole(billing_sim):
    scenario = (
        "rules:\\n"
        "  - {operation: getBalance, kind: http_500}\\n"
        "  - {operation: listInvoices, kind: connection_reset}\\n"
    )
    with pytest.raises(LoopbackRequired):
        billing_sim.faults.load_scenario(scenario)
    assert billing_sim.faults.rules() == []


@pytest.mark.billing_sim(emulate_socket_faults=True)
@pytest.mark.parametrize("kind", sorted(EMULATED))
def test_emulated_in_process(billing_sim, kind):
    inject(billing_sim, kind, *EMULATED[kind], **FAST)


@pytest.mark.parametrize("kind", sorted(ON_A_SOCKET))
def test_on_a_socket(billing_sim_server, kind):
    inject(billing_sim_server, kind, *ON_A_SOCKET[kind], **SHORT)
"""


def test_every_fault_kind_in_a_users_suite(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_faults=FAULT_SUITE)
    result = pytester.runpytest_inprocess(*RUN)
    # 1 catalogue + 11 in-process + 2 + 5 refused + 1 scenario + 5 emulated + 6 loopback
    result.assert_outcomes(passed=31)
