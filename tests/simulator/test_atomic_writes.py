"""No half-applied write: a write that does not answer 2xx leaves everything as it was.

"Everything" is the billing state (serialised), the fault rules, the snapshots and the
`--state` file itself (its SQL dump). The property runs over every write operation of both
contracts — the billing API's and the admin API's — with arbitrary bodies: lone surrogates,
control characters, huge and non-finite numbers, deep nesting, wrong types, and bodies that
are valid but for one field. Hypothesis is derandomized, so the run is the same every time.
"""

from __future__ import annotations

import json
import math
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from billing_toolkit.simulator.handlers import payment_reports, payments
from billing_toolkit.simulator.state import codec
from tests.simulator.conftest import ADMIN, Sim, small_config

ACCOUNT = "1000004821"

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**18, max_value=10**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(st.characters(codec=None), max_size=30)  # surrogates and control characters
    | st.sampled_from(["\ud800", "a\x00b", "1.00\n", "0000-01-01T00:00:00Z", "*", "getBalance"])
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)

WRITES: dict[str, tuple[str, str, dict[str, Any] | str | None]] = {
    # operationId: (method, path, a valid body whose fields are then spoiled)
    "createPayment": ("POST", f"/v1/customers/{ACCOUNT}/payments",
                      {"amount": "1.00", "currency": "USD", "method": "cash", "reference": "004512873301"}),
    "createPaymentReport": ("POST", f"/v1/customers/{ACCOUNT}/payment-reports",
                            {"method": "pago_movil", "amount": "1310.40", "currency": "VES", "reference": "0045127",
                             "bank": "0134", "payment_date": "2026-11-10"}),
    "resetSimulator": ("POST", "/_sim/reset", {"seed": 42, "customers_per_tenant": 16}),
    "createSnapshot": ("POST", "/_sim/snapshots", {"snapshot_id": "snap-a"}),
    "restoreSnapshot": ("POST", "/_sim/snapshots/{id}/restore", None),
    "setClock": ("PUT", "/_sim/clock", {"now": "2026-11-12T00:00:00Z"}),
    "advanceClock": ("POST", "/_sim/clock/advance", {"days": 1}),
    "addFault": ("POST", "/_sim/faults", {"kind": "http_503", "operation": "getBalance", "times": 1}),
    "clearFaults": ("DELETE", "/_sim/faults", None),
    "deleteFault": ("DELETE", "/_sim/faults/{id}", None),
    "loadScenario": ("POST", "/_sim/scenarios", "name: s\nrules:\n  - {kind: http_500, operation: listPlans}\n"),
    "unloadScenario": ("DELETE", "/_sim/scenarios/{id}", None),
    "setScenarioState": ("PUT", "/_sim/scenarios/{id}/state", {"state": "degraded"}),
    "clearFaultEvents": ("DELETE", "/_sim/fault-events", None),
    "clearRequests": ("DELETE", "/_sim/requests", None),
    "setRateLimits": ("PUT", "/_sim/rate-limits", {"limits": ["5/s", "getBalance=1/min"]}),
    "clearRateLimits": ("DELETE", "/_sim/rate-limits", None),
}  # fmt: skip


def test_every_write_operation_of_both_contracts_is_covered() -> None:
    sim = Sim(small_config())
    runtime = sim.app.state.runtime
    writes = {
        key
        for contract in (runtime.billing, runtime.admin)
        for key, op in contract.operations.items()
        if op.method.upper() in ("POST", "PUT", "PATCH", "DELETE")
    }
    assert writes == set(WRITES)


def _world(sim: Sim, state_file: Path) -> tuple[Any, ...]:
    with sqlite3.connect(state_file) as db:
        dump = "\n".join(db.iterdump())
    return (
        codec.dumps(sim.control.store.state),
        json.dumps(sim.control.faults.list(), sort_keys=True),
        json.dumps(sim.control.rate_limits.list(), sort_keys=True),
        sim.control.snapshots(),
        dump,
    )


@st.composite
def _requests(draw: st.DrawFn) -> tuple[str, str, str, bytes, str]:
    operation = draw(st.sampled_from(sorted(WRITES)))
    method, path, base = WRITES[operation]
    if "{id}" in path:
        path = path.replace(
            "{id}", quote(draw(st.text(min_size=1, max_size=20) | st.just("snap-a")), safe="")
        )
    if isinstance(base, str):  # YAML: spoil it, or send arbitrary text
        text = draw(
            st.sampled_from([base, base.replace("500", "599"), base + "  - kind: x\n"])
            | st.text(st.characters(codec=None), max_size=60)
        )
        body = text.encode("utf-8", "surrogatepass")
        return operation, method, path, body, "application/yaml"
    if base is None:
        return operation, method, path, b"", "application/json"
    shape = draw(st.sampled_from(["spoil", "arbitrary", "deep", "raw"]))
    if shape == "spoil":
        value: Any = dict(base)
        value[draw(st.sampled_from([*base, "extra"]))] = draw(JSON_VALUES)
    elif shape == "deep":
        depth = draw(st.integers(min_value=30, max_value=100_000))
        nested = b'{"amount":' + b"[" * depth + b"]" * depth + b"}"
        return operation, method, path, nested, "application/json"
    elif shape == "arbitrary":
        value = draw(JSON_VALUES)
    else:
        return operation, method, path, draw(st.binary(max_size=60)), "application/json"
    if operation == "resetSimulator" and isinstance(value, dict):
        customers = value.get("customers_per_tenant")
        assume(not (isinstance(customers, int) and 40 < customers <= 5000))  # valid, just slow
    if operation == "advanceClock" and isinstance(value, dict):
        assume(not _a_long_valid_move(value))  # valid, just slow: days of billing to run
    body = json.dumps(value, ensure_ascii=True, allow_nan=True).encode()  # surrogates as \\udXXX
    return operation, method, path, body, "application/json"


def _a_long_valid_move(value: dict[str, Any]) -> bool:
    seconds = {"days": 86_400, "hours": 3_600, "minutes": 60, "seconds": 1}
    if not set(value) <= set(seconds):
        return False
    parts = list(value.values())
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in parts):
        return False
    if not all(math.isfinite(v) and v >= 0 for v in parts):
        return False
    total = sum(v * seconds[k] for k, v in value.items())
    return 40 * 86_400 < total <= 3660 * 86_400


def _auth(path: str, sim: Sim) -> dict[str, str]:
    return ADMIN if path.startswith("/_sim") else sim.auth()


@pytest.mark.parametrize("engine", ["compiled", "openapi-core"])
def test_a_write_that_is_not_2xx_changes_nothing(engine: str, tmp_path: Path) -> None:
    state_file = tmp_path / "state.db"
    sim = Sim(small_config(validation_engine=engine, state_path=state_file))
    sim.control.snapshot("snap-a")
    statuses: list[int] = []

    @settings(max_examples=120, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])  # fmt: skip
    @given(request=_requests())
    def check(request: tuple[str, str, str, bytes, str]) -> None:
        operation, method, path, body, media = request
        if operation in ("advanceClock", "setClock"):
            sim.control.restore("snap-a")  # keep the business clock near its start
        before = _world(sim, state_file)
        headers = {**_auth(path, sim), "Content-Type": media, "Idempotency-Key": "prop-key-0001"}
        response = sim.client.request(method, path, headers=headers, content=body)
        statuses.append(response.status_code)
        assert response.status_code < 500, response.text[:300]
        if response.status_code >= 300:
            assert response.headers["content-type"] == "application/problem+json"
            assert _world(sim, state_file) == before, (
                f"{operation} {response.status_code} changed state"
            )

    check()
    assert any(s >= 400 for s in statuses) and any(s < 300 for s in statuses)


def test_a_payment_that_cannot_be_rendered_leaves_memory_and_the_state_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The render step fails after the money was computed: nothing of it may remain."""
    state_file = tmp_path / "state.db"
    sim = Sim(small_config(state_path=state_file, raise_on_invalid_response=False))
    before = _world(sim, state_file)

    def broken(payment: Any) -> str:
        raise TypeError("cannot render")

    monkeypatch.setattr(payments, "_render", broken)
    assert sim.pay(ACCOUNT, "render-key-01").status_code == 500
    assert _world(sim, state_file) == before
    monkeypatch.undo()
    retried = sim.pay(ACCOUNT, "render-key-01")
    assert retried.status_code == 201 and retried.headers["idempotent-replayed"] == "false"


def test_a_report_that_cannot_be_rendered_leaves_memory_and_the_state_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state_file = tmp_path / "state.db"
    sim = Sim(small_config(state_path=state_file, raise_on_invalid_response=False))
    before = _world(sim, state_file)
    _, path, body = WRITES["createPaymentReport"]

    def report() -> Any:
        headers = {**sim.auth(), "Idempotency-Key": "render-key-02"}
        return sim.client.post(path, headers=headers, json=body)

    def broken(made: Any) -> str:
        raise TypeError("cannot render")

    monkeypatch.setattr(payment_reports, "_render", broken)
    assert report().status_code == 500
    assert _world(sim, state_file) == before
    monkeypatch.undo()
    assert report().headers["idempotent-replayed"] == "false"


def test_a_failed_save_leaves_memory_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state_file = tmp_path / "state.db"
    sim = Sim(small_config(state_path=state_file, raise_on_invalid_response=False))
    # the seeded reports verified first: an advance with nothing falling due copies less
    assert (
        sim.client.post("/_sim/clock/advance", headers=ADMIN, json={"days": 1}).status_code == 200
    )
    report = sim.client.post(  # falls due in the same business day: the sharing copy
        f"/v1/customers/{ACCOUNT}/payment-reports",
        headers={**sim.auth(), "Idempotency-Key": "disk-report-0001"},
        json={"method": "pago_movil", "amount": "1310.40", "currency": "VES",
              "reference": "0045127", "bank": "0134", "payment_date": "2026-11-11"},
    )  # fmt: skip
    assert report.status_code == 201, report.text
    before = _world(sim, state_file)
    persistence = sim.control.store._persistence

    def full_disk(*_: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(persistence, "save_write", full_disk)
    monkeypatch.setattr(persistence, "save_all", full_disk)
    assert sim.pay(ACCOUNT, "disk-key-0001").status_code == 500
    for step in (
        {"days": 40},
        {"minutes": 10},
        {"minutes": 40},
    ):  # across days, the clock, a report
        assert sim.client.post("/_sim/clock/advance", headers=ADMIN, json=step).status_code == 500
    assert sim.client.post("/_sim/reset", headers=ADMIN, json={"seed": 7}).status_code == 500
    assert _world(sim, state_file) == before


def test_a_lone_surrogate_reference_is_refused_and_the_account_stays_healthy(
    tmp_path: Path,
) -> None:
    state_file = tmp_path / "state.db"
    sim = Sim(small_config(state_path=state_file))
    balance = sim.get(f"/v1/customers/{ACCOUNT}/balance").json()
    body = b'{"amount":"1.00","currency":"USD","method":"cash","reference":"\\ud800"}'
    for key in ("surrogate-key-1", "surrogate-key-1", "surrogate-key-2"):
        refused = sim.client.post(
            f"/v1/customers/{ACCOUNT}/payments",
            headers={**sim.auth(), "Idempotency-Key": key, "Content-Type": "application/json"},
            content=body,
        )
        assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "body"
    assert sim.get(f"/v1/customers/{ACCOUNT}/payments").status_code == 200
    assert sim.get(f"/v1/customers/{ACCOUNT}/balance").json() == balance
    assert sim.pay(ACCOUNT, "after-surrogate-1").status_code == 201
    restarted = Sim(small_config(state_path=state_file))
    assert (
        restarted.get(f"/v1/customers/{ACCOUNT}/balance").json()
        == sim.get(f"/v1/customers/{ACCOUNT}/balance").json()
    )
