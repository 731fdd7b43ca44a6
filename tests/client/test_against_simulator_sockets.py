"""Integration over loopback: the faults that need a real socket and real time (uvicorn).

Short timeouts keep each test well under two seconds. The server is the project's pytest
plugin (`billing_sim_server`): uvicorn on 127.0.0.1 on a free port, per test, over one
shared read-only dataset for the module.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from billing_toolkit.client import (
    BreakerConfig,
    Capabilities,
    CircuitBreaker,
    CircuitState,
    RetryPolicy,
    Timeouts,
)
from billing_toolkit.pytest_plugin import BillingSim

pytestmark = pytest.mark.billing_sim(shared=True)
TIMEOUTS = Timeouts(connect=1.0, read=0.3, total=1.0)
RETRY = RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=0.05)


class CountingTransport(httpx.HTTPTransport):
    """Counts the requests that really reach the network."""

    def __init__(self) -> None:
        super().__init__()
        self.sent = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.sent += 1
        return super().handle_request(request)


def capabilities(
    sim: BillingSim, transport: httpx.BaseTransport | None = None, threshold: int = 10
) -> Capabilities:
    breaker = CircuitBreaker(BreakerConfig(failure_threshold=threshold, reset_timeout=60.0))
    client = sim.client_for(
        "fibranet", timeouts=TIMEOUTS, retry=RETRY, breaker=breaker, transport=transport
    )
    return Capabilities(client)


SOCKET_FAULTS: dict[str, tuple[dict[str, Any], int]] = {
    # kind: (params, requests the client makes before escalating)
    "connection_reset": ({}, 3),
    "connection_drop": ({}, 3),
    "truncated_body": ({"fraction": 0.5}, 3),
    "empty_response": ({}, 1),
    "timeout": ({"hold_s": 1.5}, 1),
    "slow_drip": ({"chunk_bytes": 8, "interval_ms": 150}, 1),
}


@pytest.mark.parametrize("kind", list(SOCKET_FAULTS))
def test_socket_faults_escalate_within_the_budget(
    kind: str, billing_sim_server: BillingSim
) -> None:
    sim = billing_sim_server
    account = sim.sample("individual")["account_number"]
    params, requests = SOCKET_FAULTS[kind]
    sim.faults.add(kind, operation="getBalance", **params)
    caps = capabilities(sim)
    result = caps.balance(account)
    caps.client.close()
    assert (result.ok, result.should_escalate, result.evidence_text, result.data) == (
        False,
        True,
        None,
        None,
    )
    assert result.error
    assert len(sim.faults.events(kind)) == requests


@pytest.mark.parametrize("kind", ["connection_reset", "connection_drop", "truncated_body"])
def test_a_transient_socket_fault_is_retried_away(
    kind: str, billing_sim_server: BillingSim
) -> None:
    sim = billing_sim_server
    account = sim.sample("individual")["account_number"]
    sim.faults.add(kind, operation="getBalance", times=1, **SOCKET_FAULTS[kind][0])
    caps = capabilities(sim)
    result = caps.balance(account)
    caps.client.close()
    assert (result.ok, result.should_escalate) == (True, False)
    assert len(sim.faults.events(kind)) == 1


def test_with_every_call_timing_out_an_open_circuit_answers_without_a_round_trip(
    billing_sim_server: BillingSim,
) -> None:
    sim = billing_sim_server
    account = sim.sample("individual")["account_number"]
    sim.faults.add("timeout", operation="*", hold_s=1.0)
    transport = CountingTransport()
    caps = capabilities(sim, transport, threshold=3)
    opening = [caps.balance(account) for _ in range(3)]
    assert caps.client.breaker.state is CircuitState.OPEN
    assert transport.sent == 3
    fast = [caps.balance(account), caps.invoices(account), caps.plan(account)]
    caps.client.close()
    assert transport.sent == 3, "no request reached the network once the circuit was open"
    for result in opening + fast:
        assert (result.ok, result.should_escalate) == (False, True)
    assert all((r.error or "").startswith("circuit_open: ") for r in fast)
