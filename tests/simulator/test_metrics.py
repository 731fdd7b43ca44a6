"""`GET /metrics` of the simulator: requests by operation and status, faults by kind,
latency — with no account number or key in a label."""

from __future__ import annotations

import re

from tests.simulator.conftest import Sim


def sample(text: str, name: str) -> float:
    match = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert match is not None, f"{name} is not exposed"
    return float(match.group(1))


def test_requests_faults_and_latency_are_counted(sim: Sim) -> None:
    account = sim.sample("open_invoice")["account_number"]
    assert sim.get(f"/v1/customers/{account}/balance").status_code == 200
    sim.control.faults.add("http_503", operation="getBalance", times=1)
    assert sim.get(f"/v1/customers/{account}/balance").status_code == 503
    sim.get("/v1/no-such-thing")
    metrics = sim.client.get("/metrics")
    assert metrics.status_code == 200 and metrics.headers["content-type"].startswith("text/plain")
    text = metrics.text
    assert sample(text, 'billing_sim_requests_total{operation="getBalance",status="200"}') == 1
    assert sample(text, 'billing_sim_requests_total{operation="getBalance",status="503"}') == 1
    assert sample(text, 'billing_sim_requests_total{operation="unmatched",status="404"}') == 1
    assert sample(text, 'billing_sim_faults_injected_total{kind="http_503"}') == 1
    assert sample(text, 'billing_sim_request_duration_seconds_count{operation="getBalance"}') == 2
    assert account not in text
    for key in (t["api_key"] for t in sim.info["tenants"]):
        assert key not in text
