"""The admin API (`/_sim`): token, dataset info, clock, snapshots, reset, faults, events."""

from __future__ import annotations

from tests.simulator.conftest import ADMIN, Sim


def test_admin_needs_the_admin_token(sim: Sim) -> None:
    for headers in ({}, sim.auth(), {"Authorization": "Bearer wrong"}):
        response = sim.client.get("/_sim/info", headers=headers)
        assert response.status_code == 401 and response.json()["code"] == "unauthorized"


def test_info_matches_the_in_process_control(sim: Sim) -> None:
    assert sim.client.get("/_sim/info", headers=ADMIN).json() == sim.control.info()


def test_clock_advance_issues_invoices_and_is_reported(sim: Sim) -> None:
    account = sim.sample("open_invoice")["account_number"]
    before = len(sim.get(f"/v1/customers/{account}/invoices", params={"limit": 100}).json()["data"])
    report = sim.client.post("/_sim/clock/advance", headers=ADMIN, json={"days": 31}).json()
    assert (
        report["days"] == 31
        and report["invoices_issued"] >= 2 * 12
        and report["invoices_overdue"] > 0
    )
    assert (
        sim.client.get("/_sim/clock", headers=ADMIN).json()["now"]
        == report["now"]
        == "2026-12-11T13:00:00Z"
    )
    after = len(sim.get(f"/v1/customers/{account}/invoices", params={"limit": 100}).json()["data"])
    assert after == before + 1
    back = sim.client.put("/_sim/clock", headers=ADMIN, json={"now": "2026-01-01T00:00:00Z"})
    assert back.status_code == 400 and back.json()["errors"][0]["field"] == "body.now"
    nothing = sim.client.post("/_sim/clock/advance", headers=ADMIN, json={})
    assert nothing.status_code == 400


def test_snapshot_restore_and_reset(sim: Sim) -> None:
    account = sim.sample("overdue")["account_number"]
    balance = f"/v1/customers/{account}/balance"
    original = sim.get(balance).json()
    assert (
        sim.client.post(
            "/_sim/snapshots", headers=ADMIN, json={"snapshot_id": "before-pay"}
        ).status_code
        == 201
    )
    assert sim.pay(account, "admin-test-01", "5.00").status_code == 201
    assert sim.get(balance).json() != original
    assert sim.client.post("/_sim/snapshots/before-pay/restore", headers=ADMIN).status_code == 200
    assert sim.get(balance).json() == original
    assert (
        sim.pay(account, "admin-test-01", "6.00").status_code == 201
    )  # the key was not yet used then
    assert [
        s["snapshot_id"] for s in sim.client.get("/_sim/snapshots", headers=ADMIN).json()["data"]
    ] == ["before-pay"]
    assert sim.client.post("/_sim/snapshots/nope/restore", headers=ADMIN).status_code == 404
    reset = sim.client.post("/_sim/reset", headers=ADMIN, json={})
    assert reset.status_code == 200 and sim.get(balance).json() == original


def test_faults_through_http(sim: Sim) -> None:
    added = sim.client.post(
        "/_sim/faults",
        headers=ADMIN,
        json={"operation": "getBalance", "kind": "http_503", "duration_s": 30},
    )
    assert (
        added.status_code == 201
        and added.json()["retry_after_s"] == 5
        and added.json()["fired"] == 0
    )
    account = sim.sample("open_invoice")["account_number"]
    assert sim.get(f"/v1/customers/{account}/balance").status_code == 503
    events = sim.client.get("/_sim/fault-events", headers=ADMIN).json()["data"]
    assert [e["kind"] for e in events] == ["http_503"]
    assert sim.client.delete(f"/_sim/faults/{added.json()['id']}", headers=ADMIN).status_code == 204
    assert sim.client.delete(f"/_sim/faults/{added.json()['id']}", headers=ADMIN).status_code == 404
    assert sim.get(f"/v1/customers/{account}/balance").status_code == 200
    assert sim.client.delete("/_sim/fault-events", headers=ADMIN).status_code == 204
    assert sim.client.get("/_sim/fault-events", headers=ADMIN).json()["data"] == []


def test_bad_fault_rules_are_400_naming_the_field(sim: Sim) -> None:
    wrong_kind = sim.client.post(
        "/_sim/faults", headers=ADMIN, json={"operation": "getBalance", "kind": "http_599"}
    )
    assert wrong_kind.status_code == 400 and wrong_kind.json()["errors"][0]["field"] == "body.kind"
    semantic = sim.client.post(
        "/_sim/faults", headers=ADMIN, json={"operation": "getBalanse", "kind": "http_500"}
    )
    assert semantic.status_code == 400 and semantic.json()["errors"] == [
        {"field": "body.operation", "message": "unknown operationId 'getBalanse'"}
    ]


def test_scenarios_load_over_http(sim: Sim) -> None:
    text = "rules:\n  - operation: listPlans\n    kind: http_500\n    times: 1\n"
    loaded = sim.client.post(
        "/_sim/scenarios", headers={**ADMIN, "Content-Type": "application/yaml"}, content=text
    )
    assert loaded.status_code == 201 and loaded.json()["data"][0]["source"] == "scenario"
    assert sim.get("/v1/plans").status_code == 500 and sim.get("/v1/plans").status_code == 200
    bad = sim.client.post(
        "/_sim/scenarios", headers={**ADMIN, "Content-Type": "application/yaml"}, content="rules: ["
    )
    assert bad.status_code == 400 and "not valid YAML" in bad.json()["detail"]
