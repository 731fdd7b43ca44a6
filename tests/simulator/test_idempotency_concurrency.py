"""200 concurrent payment requests with duplicated keys, on a real server: each key once."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from decimal import Decimal

import httpx

from billing_toolkit.simulator import RealClock, control_of, create_app, serve_in_thread
from billing_toolkit.simulator.state.invariants import state_problems
from tests.simulator.conftest import small_config

KEYS = 25
COPIES = 8  # 25 keys × 8 copies = 200 requests, all in flight together


async def _storm(url: str, headers: dict[str, str]) -> list[httpx.Response]:
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        requests = [
            client.post(
                url,
                headers={**headers, "Idempotency-Key": f"storm-key-{key:04d}"},
                json={"amount": f"{key + 1}.00", "currency": "USD", "method": "pago_movil"},
            )
            for _ in range(COPIES)
            for key in range(KEYS)
        ]
        return await asyncio.gather(*requests)


def test_each_key_moves_money_exactly_once() -> None:
    app = create_app(small_config(validation_engine="compiled", clock=RealClock()))
    control = control_of(app)
    tenant = control.info()["tenants"][0]
    account = tenant["samples"]["overdue"]["account_number"]
    headers = {"Authorization": f"Bearer {tenant['api_key']}"}
    server = serve_in_thread(app)
    try:
        before = httpx.get(f"{server.url}/v1/customers/{account}/balance", headers=headers).json()
        responses = asyncio.run(_storm(f"{server.url}/v1/customers/{account}/payments", headers))
        after = httpx.get(f"{server.url}/v1/customers/{account}/balance", headers=headers).json()
    finally:
        server.stop()
    assert {r.status_code for r in responses} == {201}
    by_key: dict[str, set[str]] = defaultdict(set)
    for response in responses:
        by_key[response.request.headers["idempotency-key"]].add(response.json()["payment_id"])
    assert len(by_key) == KEYS and all(len(ids) == 1 for ids in by_key.values())
    assert sum(r.headers["idempotent-replayed"] == "false" for r in responses) == KEYS
    paid = sum(Decimal(key + 1) for key in range(KEYS))
    moved = Decimal(before["net_balance"]) - Decimal(after["net_balance"])
    assert moved == paid
    assert state_problems(control.store.state) == []
