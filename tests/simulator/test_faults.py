"""Each fault kind, matching, counts, probabilities and time windows — in-process, with the
fault clock injected, so no test waits for a delay it set up."""

from __future__ import annotations

import httpx
import pytest

from billing_toolkit.simulator.faults.kinds import KINDS
from billing_toolkit.simulator.faults.rules import FaultRuleError
from tests.simulator.conftest import Sim, small_config


def _balance(sim: Sim, role: str = "open_invoice", **kwargs: object) -> httpx.Response:
    return sim.get(f"/v1/customers/{sim.sample(role)['account_number']}/balance", **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("kind", "status", "code"), [
    ("http_500", 500, "internal"), ("http_502", 502, "unavailable"), ("http_503", 503, "unavailable"),
    ("http_504", 504, "unavailable"), ("http_429", 429, "rate_limited"),
])  # fmt: skip
def test_http_faults_answer_contract_problems(sim: Sim, kind: str, status: int, code: str) -> None:
    sim.control.faults.add(kind, operation="getBalance")
    response = _balance(sim)
    assert response.status_code == status and response.json()["code"] == code
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["request_id"] == response.headers["x-request-id"]
    if status in (429, 503):
        assert int(response.headers["retry-after"]) == (1 if status == 429 else 5)


def test_retry_after_is_configurable(sim: Sim) -> None:
    sim.control.faults.add("http_503", operation="getBalance", retry_after_s=17)
    assert _balance(sim).headers["retry-after"] == "17"


def test_forced_not_found_is_the_real_business_404(sim: Sim) -> None:
    account = sim.sample("open_invoice")["account_number"]
    sim.control.faults.add("not_found", operation="*", customer=account)
    faked = _balance(sim)
    real = sim.get(f"/v1/customers/{sim.fibranet['unknown_account_number']}/balance")
    assert faked.status_code == 404
    assert {k: v for k, v in faked.json().items() if k not in ("request_id", "instance")} == {
        k: v for k, v in real.json().items() if k not in ("request_id", "instance")
    }
    sim.control.faults.clear()
    sim.control.faults.add("not_found", operation="getInvoice")
    assert (
        sim.get(f"/v1/invoices/{sim.fibranet['invoice_numbers']['paid']}").json()["code"]
        == "invoice_not_found"
    )


def test_not_found_on_an_operation_without_404_is_refused(sim: Sim) -> None:
    with pytest.raises(FaultRuleError, match="listPlans has no 404"):
        sim.control.faults.add("not_found", operation="listPlans")


def test_times_limits_how_often_a_rule_fires(sim: Sim) -> None:
    sim.control.faults.add("http_503", operation="getBalance", times=2)
    assert [_balance(sim).status_code for _ in range(4)] == [503, 503, 200, 200]


def test_time_window_down_for_30_s_then_recovers(sim: Sim) -> None:
    sim.control.faults.add("http_503", operation="getBalance", after_s=10, duration_s=30)
    assert _balance(sim).status_code == 200
    sim.clock.advance(10)
    assert _balance(sim).status_code == 503
    sim.clock.advance(29.9)
    assert _balance(sim).status_code == 503
    sim.clock.advance(0.2)
    assert _balance(sim).status_code == 200


def test_probability_is_reproducible_for_a_seed() -> None:
    def pattern() -> list[int]:
        sim = Sim(small_config(validation_engine="compiled"))
        sim.control.faults.add("http_500", operation="getBalance", probability=0.3)
        return [_balance(sim).status_code for _ in range(40)]

    first, second = pattern(), pattern()
    assert first == second
    assert 3 <= first.count(500) <= 25


def test_rules_match_tenant_and_customer(sim: Sim) -> None:
    sim.control.faults.add("http_503", operation="*", tenant="llanolink")
    assert _balance(sim).status_code == 200
    foreign = sim.sample("open_invoice", sim.llanolink)["account_number"]
    assert sim.get(f"/v1/customers/{foreign}/balance", sim.llanolink).status_code == 503
    sim.control.faults.clear()
    target = sim.sample("overdue")["account_number"]
    sim.control.faults.add("http_500", path="/v1/customers/*/balance", customer=target)
    assert _balance(sim).status_code == 200 and _balance(sim, "overdue").status_code == 500


def test_fixed_latency_waits_on_the_fault_clock(sim: Sim) -> None:
    sim.control.faults.add("latency_fixed", operation="getBalance", ms=250)
    assert _balance(sim).status_code == 200
    assert sim.clock.slept == [0.25]


def test_uniform_and_lognormal_latency_stay_in_shape(sim: Sim) -> None:
    sim.control.faults.add("latency_uniform", operation="getBalance", min_ms=100, max_ms=200)
    for _ in range(10):
        _balance(sim)
    assert all(0.1 <= s <= 0.2 for s in sim.clock.slept)
    sim.control.faults.clear()
    sim.clock.slept.clear()
    sim.control.faults.add("latency_lognormal", operation="getBalance", median_ms=100, sigma=0.5)
    for _ in range(30):
        _balance(sim)
    ordered = sorted(sim.clock.slept)
    assert 0.05 < ordered[15] < 0.2 and ordered[-1] > ordered[0]


def test_latency_composes_with_a_terminal_fault(sim: Sim) -> None:
    sim.control.faults.add("latency_fixed", operation="*", ms=100)
    sim.control.faults.add("http_502", operation="getBalance")
    assert _balance(sim).status_code == 502 and sim.clock.slept == [0.1]
    assert [e.kind for e in sim.control.faults.events()] == ["latency_fixed", "http_502"]


@pytest.mark.parametrize(("kind", "error"), [
    ("timeout", httpx.ReadTimeout), ("connection_reset", httpx.ReadError),
    ("connection_drop", httpx.RemoteProtocolError), ("truncated_body", httpx.RemoteProtocolError),
])  # fmt: skip
def test_socket_faults_are_emulated_in_process(sim: Sim, kind: str, error: type[Exception]) -> None:
    sim.control.faults.add(kind, operation="getBalance")
    with pytest.raises(error, match="simulated"):
        _balance(sim)
    assert sim.clock.slept == []  # a timeout is not held in-process


def test_empty_and_malformed_bodies(sim: Sim) -> None:
    sim.control.faults.add("empty_response", operation="getBalance", times=1)
    empty = _balance(sim)
    assert empty.status_code == 200 and empty.content == b""
    sim.control.faults.add("malformed_json", operation="getBalance", times=1)
    broken = _balance(sim)
    assert broken.status_code == 200 and broken.headers["content-type"] == "application/json"
    with pytest.raises(ValueError):
        broken.json()


def test_slow_drip_delivers_the_whole_body_in_paced_chunks(sim: Sim) -> None:
    sim.control.faults.add("slow_drip", operation="getBalance", chunk_bytes=50, interval_ms=20)
    response = _balance(sim)
    assert response.json()["account_number"] == sim.sample("open_invoice")["account_number"]
    assert len(sim.clock.slept) == -(-len(response.content) // 50) and set(sim.clock.slept) == {
        0.02
    }


def test_every_injected_fault_is_logged_with_its_request_id(sim: Sim) -> None:
    sim.control.faults.add("http_503", operation="getBalance", id="outage")
    response = _balance(sim)
    (event,) = sim.control.faults.events()
    assert event.request_id == response.headers["x-request-id"] and event.rule_id == "outage"
    assert event.kind == "http_503" and event.tenant == "fibranet" and "*" in event.path


def test_fault_header_only_when_allowed() -> None:
    closed = Sim(small_config(validation_engine="compiled"))
    assert _balance(closed, headers={"X-Sim-Fault": "http_503"}).status_code == 200
    opened = Sim(small_config(validation_engine="compiled", allow_fault_header=True))
    response = _balance(opened, headers={"X-Sim-Fault": "http_503; retry_after_s=9"})
    assert response.status_code == 503 and response.headers["retry-after"] == "9"
    assert opened.control.faults.events()[0].source == "header"


@pytest.mark.parametrize(("header", "field", "message"), [
    ("http_418", "header.X-Sim-Fault", "kind: unknown fault kind 'http_418'"),
    ("http_503; retry_after_s=abc", "header.X-Sim-Fault", "retry_after_s: must be a number, got 'abc'"),
    ("http_503; retry_after_s", "header.X-Sim-Fault", "expected name=value"),
    ("timeout; hold_s=1e999", "header.X-Sim-Fault", "hold_s: must be a finite number"),
    ("latency_fixed; ms=99999999", "header.X-Sim-Fault", "ms: must be at most 600000"),
])  # fmt: skip
def test_a_bad_fault_header_is_a_400_naming_what_is_wrong(
    header: str, field: str, message: str
) -> None:
    opened = Sim(small_config(validation_engine="compiled", allow_fault_header=True))
    response = _balance(opened, headers={"X-Sim-Fault": header})
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json"
    errors = response.json()["errors"]
    assert [e["field"] for e in errors] == [field] and message in errors[0]["message"]
    assert opened.control.faults.events() == []


def test_admin_routes_are_never_faulted(sim: Sim) -> None:
    sim.control.faults.add("http_500", path="*")
    assert (
        sim.client.get(
            "/_sim/clock", headers={"Authorization": "Bearer test-admin-token"}
        ).status_code
        == 200
    )


@pytest.mark.parametrize(("rule", "message"), [
    ({"kind": "http_599", "operation": "getBalance"}, "kind: unknown fault kind 'http_599'"),
    ({"kind": "http_503"}, "give an operation"),
    ({"kind": "http_503", "operation": "getBalanse"}, "operation: unknown operationId 'getBalanse'"),
    ({"kind": "http_503", "operation": "*", "probability": 1.5}, "probability: must be"),
    ({"kind": "latency_fixed", "operation": "*"}, "ms: is required for latency_fixed"),
    ({"kind": "http_500", "operation": "*", "retry_after_s": 3}, "retry_after_s: unknown field for http_500"),
    ({"kind": "latency_uniform", "operation": "*", "min_ms": 5, "max_ms": 1}, "max_ms: must be >= min_ms"),
    ({"kind": "http_503", "operation": "*", "times": 0}, "times: must be a whole number"),
])  # fmt: skip
def test_bad_rules_say_which_field_is_wrong(sim: Sim, rule: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(FaultRuleError, match=message.replace("(", r"\(")):
        sim.control.faults.add_rule(rule)


def test_the_catalogue_has_every_kind_the_issue_asks_for() -> None:
    assert {"latency_fixed", "latency_uniform", "latency_lognormal", "timeout", "http_500", "http_502", "http_503",
            "http_504", "http_429", "not_found", "connection_reset", "connection_drop", "empty_response",
            "malformed_json", "truncated_body", "slow_drip"} == set(KINDS)  # fmt: skip
