"""The validating proxy judges real traffic: silent on the simulator, loud (with rule ids)
on broken upstreams, in the live log and in the report; a recording replays to the same
verdicts; identifiers never reach the recording or the log unmasked."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import httpx
import pytest

from billing_toolkit.conformance.proxy import replay
from billing_toolkit.conformance.proxy.recording import read_recording
from billing_toolkit.conformance.reporting.outputs import write_outputs
from billing_toolkit.conformance.settings import Outputs
from billing_toolkit.contract.masking import hide
from tests.conformance import broken
from tests.conformance.conftest import OPTIONS, Target, Wrap, running_simulator
from tests.conformance.proxy_support import (
    HtmlNotFound,
    LeaksInternalField,
    proxied,
    send_traffic,
)

pytestmark = OPTIONS


def test_the_simulator_through_the_proxy_has_no_violation(simulator: Target) -> None:
    with proxied(simulator.base_url) as proxy:
        statuses = send_traffic(proxy.served.url, simulator)
    assert statuses == [200, 200, 200, 200, 200, 404, 200]
    session = proxy.run.session
    assert session.exchanges == 8
    assert session.verdicts == [] and proxy.log == []
    assert {"schema.response", "problem_json", "money", "totals", "invoice.arithmetic"} <= set(
        session.exercised
    )


@pytest.mark.parametrize(
    ("wrapper", "expected"),
    [
        (broken.TotalOffByOneCent, {"totals", "invoice.arithmetic"}),
        (LeaksInternalField, {"schema.response"}),
        (HtmlNotFound, {"problem_json", "media.documented"}),
    ],
    ids=["wrong-totals", "leaked-field", "non-problem-error"],
)
def test_a_broken_upstream_is_logged_and_reported_with_rule_ids(
    wrapper: Wrap, expected: set[str], tmp_path: Path
) -> None:
    with running_simulator(wrapper) as target, proxied(target.base_url) as proxy:
        send_traffic(proxy.served.url, target)
    assert proxy.rule_ids() == expected
    logged = {line.split()[1] for line in proxy.log}
    assert logged == expected and all(line.startswith("VIOLATION ") for line in proxy.log)
    report, junit = tmp_path / "proxy.json", tmp_path / "proxy.xml"
    write_outputs(
        Outputs(junit_xml=junit, report=report), proxy.run.session.report(target.base_url), {}
    )
    checks = {c["name"]: c for c in json.loads(report.read_text())["checks"]}
    assert {n for n, c in checks.items() if c["status"] == "failed"} == expected
    assert checks["schema.request"]["status"] == "passed"
    failures = {
        case.get("name")
        for case in ElementTree.parse(junit).getroot().iter("testcase")
        if case.find("failure") is not None
    }
    assert failures == expected


def test_a_leaked_field_is_named_in_the_violation() -> None:
    with running_simulator(LeaksInternalField) as target, proxied(target.base_url) as proxy:
        send_traffic(proxy.served.url, target)
    assert any("undocumented property 'credit_score'" in line for line in proxy.log)


def test_a_recording_replays_to_the_same_verdicts(tmp_path: Path) -> None:
    with running_simulator(broken.TotalOffByOneCent) as target, proxied(target.base_url) as proxy:
        send_traffic(proxy.served.url, target)
    recording = tmp_path / "traffic.jsonl"
    recording.write_text(proxy.recording.getvalue(), encoding="utf-8")
    live = proxy.run.session.verdicts
    assert live and replay(recording) == live


def test_masking_is_on_by_default_in_the_recording_and_the_log(tmp_path: Path) -> None:
    with running_simulator(LeaksInternalField) as target, proxied(target.base_url) as proxy:
        send_traffic(proxy.served.url, target)
    recorded, log = proxy.recording.getvalue(), "\n".join(proxy.log)
    raw = (target.account_number, target.customer_phone, target.customer_phone[1:], target.api_key)
    for secret in raw:
        assert secret not in recorded and secret not in log
    assert hide(target.account_number) in log  # 10******21: still followable
    assert '"authorization":"[redacted]"' in recorded
    # the masked recording still matches the contract's formats: replayed, no new verdicts
    recording = tmp_path / "traffic.jsonl"
    recording.write_text(recorded, encoding="utf-8")
    assert {v.rule_id for v in replay(recording)} == {"schema.response"}


def test_no_mask_records_identifiers_but_never_the_api_key(simulator: Target) -> None:
    with proxied(simulator.base_url, masked=False) as proxy:
        send_traffic(proxy.served.url, simulator)
    recorded = proxy.recording.getvalue()
    assert simulator.account_number in recorded
    assert simulator.api_key not in recorded


def test_recorded_exchanges_read_back_in_order(simulator: Target, tmp_path: Path) -> None:
    with proxied(simulator.base_url) as proxy:
        send_traffic(proxy.served.url, simulator)
    recording = tmp_path / "traffic.jsonl"
    recording.write_text(proxy.recording.getvalue(), encoding="utf-8")
    statuses = [exchange.status for exchange in read_recording(recording)]
    assert statuses == [200, 200, 200, 200, 200, 404, 200, 200]


def test_the_proxys_own_refusals_are_problem_json(simulator: Target) -> None:
    with proxied(simulator.base_url) as proxy:
        proxy.run.app.max_body = 16
        too_big = httpx.post(
            f"{proxy.served.url}/v1/customers/{simulator.account_number}/payments",
            content=b"x" * 64,
            timeout=10,
        )
    assert too_big.status_code == 413
    assert too_big.headers["content-type"] == "application/problem+json"
    assert too_big.json()["code"] == "payload_too_large"
    with proxied("http://127.0.0.1:9") as proxy:  # the discard port: nothing listens
        down = httpx.get(f"{proxy.served.url}/v1/plans", timeout=10)
    assert down.status_code == 502 and down.json()["code"] == "upstream_unavailable"
    assert proxy.run.session.exchanges == 0
