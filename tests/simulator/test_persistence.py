"""`--state FILE`: the state survives a restart; snapshots live in the file too."""

from __future__ import annotations

from pathlib import Path

from tests.simulator.conftest import ADMIN, Sim, small_config


def test_payment_and_clock_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "sim.sqlite3"
    first = Sim(small_config(state_path=path, validation_engine="compiled"))
    account = first.sample("overdue")["account_number"]
    paid = first.pay(account, "persist-key-1", "7.50").json()
    first.client.post("/_sim/clock/advance", headers=ADMIN, json={"days": 2})
    first.client.post("/_sim/snapshots", headers=ADMIN, json={"snapshot_id": "kept"})
    balance = first.get(f"/v1/customers/{account}/balance").json()

    second = Sim(small_config(state_path=path, validation_engine="compiled"))
    assert second.get(f"/v1/customers/{account}/balance").json() == balance
    assert second.get(f"/v1/customers/{account}/payments").json()["data"][0] == paid
    replay = second.pay(account, "persist-key-1", "7.50")
    assert replay.headers["idempotent-replayed"] == "true" and replay.json() == paid
    assert [s["snapshot_id"] for s in second.control.snapshots()] == ["kept"]


def test_a_new_file_starts_from_the_seed(tmp_path: Path) -> None:
    memory = Sim(small_config(validation_engine="compiled"))
    stored = Sim(small_config(state_path=tmp_path / "fresh.sqlite3", validation_engine="compiled"))
    assert stored.info == memory.info
