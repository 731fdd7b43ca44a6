"""The fast engine gives the reference engine's verdicts (same status, same fields)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.simulator.conftest import Sim, small_config

ACCOUNT = "1000004821"
CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("GET", f"/v1/customers/{ACCOUNT}/invoices", {"params": {"limit": "0"}}),
    ("GET", f"/v1/customers/{ACCOUNT}/invoices", {"params": {"limit": "1.5"}}),
    ("GET", f"/v1/customers/{ACCOUNT}/invoices", {"params": {"limit": "100", "status": "paid"}}),
    ("GET", f"/v1/customers/{ACCOUNT}/invoices", {"params": {"period_from": "2026-02-30"}}),
    ("GET", f"/v1/customers/{ACCOUNT}/invoices", {"params": {"cursor": "a b"}}),
    ("GET", "/v1/customers/123/balance", {}),
    ("GET", "/v1/invoices/INV-26-1", {}),
    ("GET", "/v1/customer-lookup", {"params": {"phone": "04121234567"}}),
    ("GET", "/v1/customer-lookup", {"params": {"national_id": "J-12345678-9"}}),
    (
        "POST",
        f"/v1/customers/{ACCOUNT}/payments",
        {"json": {"amount": "1.00", "currency": "USD", "method": "cash"}},
    ),
    (
        "POST",
        f"/v1/customers/{ACCOUNT}/payments",
        {"json": {"amount": "-1.00", "currency": "USD", "method": "cash"}, "key": "engine-key-1"},
    ),
    (
        "POST",
        f"/v1/customers/{ACCOUNT}/payments",
        {"json": {"amount": "1.00", "currency": "USD", "method": "barter"}, "key": "engine-key-2"},
    ),
    ("POST", f"/v1/customers/{ACCOUNT}/payments", {"content": b"{not json", "key": "engine-key-3"}),
    (
        "POST",
        f"/v1/customers/{ACCOUNT}/payments",
        {
            "json": {"amount": "1.00", "currency": "USD", "method": "cash", "reference": "x" * 65},
            "key": "engine-key-4",
        },
    ),
    (
        "POST",
        f"/v1/customers/{ACCOUNT}/payments",
        {"json": {"amount": "3.00", "currency": "USD", "method": "cash"}, "key": "engine-key-5"},
    ),
]


def _call(sim: Sim, method: str, path: str, options: dict[str, Any]) -> tuple[int, list[str]]:
    options = dict(options)
    headers = sim.auth()
    if "key" in options:
        headers["Idempotency-Key"] = options.pop("key")
    if "content" in options:
        headers["Content-Type"] = "application/json"
    response = sim.client.request(method, path, headers=headers, **options)
    body = response.json()
    return response.status_code, sorted(e["field"] for e in body.get("errors", [])) if isinstance(
        body, dict
    ) else []


@pytest.mark.parametrize(
    ("method", "path", "options"), CASES, ids=[f"{m} {p} {o}"[:60] for m, p, o in CASES]
)
def test_engines_agree(method: str, path: str, options: dict[str, Any]) -> None:
    reference = Sim(small_config(validation_engine="openapi-core"))
    fast = Sim(small_config(validation_engine="compiled"))
    assert _call(fast, method, path, options) == _call(reference, method, path, options)
