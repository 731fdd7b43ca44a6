"""Hostile input gets a 4xx problem+json — never a 5xx, never a traceback, never a change.

Each case is what a prober sent (issue 14): nesting past any validator's recursion, a lone
surrogate, numbers and dates past what the clock or the dataset can take, bodies larger
than anything the contract describes, two credentials, a reused key with another currency.
Every case runs under both validation engines, and the state must be byte-identical after.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.types import Message

from billing_toolkit.simulator.state import codec
from tests.simulator.conftest import ADMIN, Sim, small_config

ACCOUNT = "1000004821"
PAYMENTS = f"/v1/customers/{ACCOUNT}/payments"
GOOD = b'{"amount":"1.00","currency":"USD","method":"cash"}'
JSON = {"Content-Type": "application/json"}
BILLING = "billing"


def _deep(levels: int) -> bytes:
    return b'{"amount":' + b"[" * levels + b"]" * levels + b"}"


HOSTILE: list[tuple[str, str, str, str, dict[str, str], bytes, int, str]] = [
    # (name, method, path, credentials, headers, body, status, field named)
    ("lone surrogate reference", "POST", PAYMENTS, BILLING, JSON,
     b'{"amount":"1.00","currency":"USD","method":"cash","reference":"\\ud800"}', 400, "body"),
    ("lone low surrogate", "POST", PAYMENTS, BILLING, JSON,
     b'{"amount":"1.00","currency":"USD","method":"cash","reference":"a\\udc00b"}', 400, "body"),
    ("nested 256 deep", "POST", PAYMENTS, BILLING, JSON, _deep(256), 400, "body"),
    ("nested 100 000 deep", "POST", PAYMENTS, BILLING, JSON, _deep(100_000), 400, "body"),
    ("nested 100 000 deep, admin", "POST", "/_sim/faults", "admin", JSON, b"[" * 100_000, 400, "body"),
    ("amount 1e400", "POST", PAYMENTS, BILLING, JSON,
     b'{"amount":1e400,"currency":"USD","method":"cash"}', 400, "body"),
    ("NaN amount", "POST", PAYMENTS, BILLING, JSON,
     b'{"amount":NaN,"currency":"USD","method":"cash"}', 400, "body"),
    ("amount with a newline", "POST", PAYMENTS, BILLING, JSON,
     b'{"amount":"1.00\\n","currency":"USD","method":"cash"}', 400, "body.amount"),
    ("no content type", "POST", PAYMENTS, BILLING, {}, GOOD, 400, "header.Content-Type"),
    ("invalid UTF-8", "POST", PAYMENTS, BILLING, JSON, b'{"amount":"\xff"}', 400, "body"),
    ("5 MB body", "POST", PAYMENTS, BILLING, JSON,
     b'{"reference":"' + b"x" * 5_000_000 + b'"}', 413, "body"),
    ("5 MB body, no key", "POST", PAYMENTS, "none", JSON, b"x" * 5_000_000, 401, ""),
    ("two Authorization headers", "POST", PAYMENTS, "twice", JSON, GOOD, 401, ""),
    ("advance 1e300 hours", "POST", "/_sim/clock/advance", "admin", JSON, b'{"hours":1e300}', 400,
     "body.hours"),
    ("advance 1e308 seconds", "POST", "/_sim/clock/advance", "admin", JSON,
     b'{"seconds":1e308}', 400, "body.seconds"),
    ("advance 3660 days and an hour", "POST", "/_sim/clock/advance", "admin", JSON,
     b'{"days":3660,"hours":1}', 400, "body"),
    ("clock to year 0", "PUT", "/_sim/clock", "admin", JSON, b'{"now":"0000-01-01T00:00:00Z"}',
     400, "body.now"),
    ("clock to year 9999", "PUT", "/_sim/clock", "admin", JSON, b'{"now":"9999-12-31T23:59:59Z"}',
     400, "body.now"),
    ("clock backwards", "PUT", "/_sim/clock", "admin", JSON, b'{"now":"2001-01-01T00:00:00Z"}',
     400, "body.now"),
    ("reset seed 10**30", "POST", "/_sim/reset", "admin", JSON,
     b'{"seed":1000000000000000000000000000000}', 400, "body.seed"),
    ("reset seed -1", "POST", "/_sim/reset", "admin", JSON, b'{"seed":-1}', 400, "body.seed"),
    ("reset 10**8 customers", "POST", "/_sim/reset", "admin", JSON,
     b'{"customers_per_tenant":100000000}', 400, "body.customers_per_tenant"),
    ("fault hold 1e300 s", "POST", "/_sim/faults", "admin", JSON,
     b'{"kind":"timeout","operation":"*","hold_s":1e300}', 400, "body.hold_s"),
    ("fault times 10**30", "POST", "/_sim/faults", "admin", JSON,
     b'{"kind":"http_500","operation":"*","times":1000000000000000000000000000000}', 400,
     "body.times"),
    ("fault for no tenant", "POST", "/_sim/faults", "admin", JSON,
     b'{"kind":"http_500","operation":"*","tenant":"nosuch"}', 400, "body.tenant"),
    ("fault for no customer", "POST", "/_sim/faults", "admin", JSON,
     b'{"kind":"http_500","operation":"*","customer":"abc"}', 400, "body.customer"),
    ("fault with operation and path", "POST", "/_sim/faults", "admin", JSON,
     b'{"kind":"http_500","operation":"getBalance","path":"/v1/*"}', 400, "body.path"),
    ("scenario nested 100 000 deep", "POST", "/_sim/scenarios", "admin",
     {"Content-Type": "application/yaml"}, b"[" * 100_000, 400, "body"),
    ("scenario with a duplicate key", "POST", "/_sim/scenarios", "admin",
     {"Content-Type": "application/yaml"},
     b"rules:\n  - kind: http_500\n    kind: http_503\n    operation: '*'\n", 400, "body"),
    ("scenario of invalid UTF-8", "POST", "/_sim/scenarios", "admin",
     {"Content-Type": "application/yaml"}, b"rules: \xff\n", 400, "body"),
]  # fmt: skip


def _headers(sim: Sim, credentials: str, extra: dict[str, str], key: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = list(extra.items()) + [("Idempotency-Key", key)]
    if credentials == BILLING:
        found.append(("Authorization", sim.auth()["Authorization"]))
    elif credentials == "admin":
        found.append(("Authorization", ADMIN["Authorization"]))
    elif credentials == "twice":
        found += [("Authorization", sim.auth()["Authorization"]), ("Authorization", "Bearer x")]
    return found


def _world(sim: Sim) -> tuple[str, list[dict[str, Any]], list[dict[str, str]]]:
    """Everything a write could change: the billing state, the fault rules, the snapshots."""
    return codec.dumps(sim.control.store.state), sim.control.faults.list(), sim.control.snapshots()


@pytest.mark.parametrize("engine", ["compiled", "openapi-core"])
@pytest.mark.parametrize(
    ("name", "method", "path", "credentials", "headers", "body", "status", "field"),
    HOSTILE,
    ids=[case[0] for case in HOSTILE],
)
def test_hostile_input_is_a_4xx_problem_and_changes_nothing(
    engine: str, name: str, method: str, path: str, credentials: str,
    headers: dict[str, str], body: bytes, status: int, field: str,
) -> None:  # fmt: skip
    sim = Sim(small_config(validation_engine=engine))
    before = _world(sim)
    response = sim.client.request(
        method, path, headers=_headers(sim, credentials, headers, "hostile-key-1"), content=body
    )
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    if field:
        assert field in [e["field"] for e in problem["errors"]], problem
    assert len(response.content) < 4096, "an error message quotes at most a capped excerpt"
    assert _world(sim) == before
    healthy = sim.client.get(PAYMENTS, headers=sim.auth())
    assert (
        healthy.status_code == 200
        and sim.client.get("/_sim/info", headers=ADMIN).status_code == 200
    )


def test_the_same_key_with_another_currency_is_a_409_conflict(sim: Sim) -> None:
    assert sim.pay(ACCOUNT, "same-key-0001").status_code == 201
    again = sim.pay(ACCOUNT, "same-key-0001", currency="VES")
    assert again.status_code == 409 and again.json()["code"] == "idempotency_conflict"
    fresh = sim.pay(ACCOUNT, "other-key-0001", currency="VES")
    assert fresh.status_code == 422 and fresh.json()["errors"][0]["field"] == "body.currency"


def test_an_error_message_quotes_a_capped_excerpt(sim: Sim) -> None:
    response = sim.client.post(
        PAYMENTS,
        headers={**sim.auth(), "Idempotency-Key": "capped-key-01"},
        json={"amount": "1.00", "currency": "USD", "method": "cash", "reference": "y" * 500_000},
    )
    assert response.status_code == 400
    message = response.json()["errors"][0]["message"]
    assert len(message) <= 200 and message.endswith("…")


class _Receiver:
    """An ASGI receive() that yields a body in chunks and counts what was consumed."""

    def __init__(self, chunk: bytes, chunks: int) -> None:
        self.chunk, self.left, self.consumed = chunk, chunks, 0

    async def __call__(self) -> dict[str, Any]:
        self.left -= 1
        self.consumed += len(self.chunk)
        return {"type": "http.request", "body": self.chunk, "more_body": self.left > 0}


def _call(sim: Sim, headers: list[tuple[bytes, bytes]], receive: _Receiver) -> int:
    started: dict[str, Any] = {}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            started.update(message)

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": PAYMENTS, "raw_path": PAYMENTS.encode(), "query_string": b"",
        "root_path": "", "headers": headers, "client": ("127.0.0.1", 1), "server": ("t", 80),
    }  # fmt: skip
    asyncio.run(sim.app(scope, receive, send))
    return int(started["status"])


def test_a_large_chunked_body_is_refused_while_it_streams() -> None:
    sim = Sim(small_config(max_body_bytes=64 * 1024))
    receive = _Receiver(b"x" * 16 * 1024, chunks=6400)  # 100 MiB on offer
    auth = sim.auth()["Authorization"].encode()
    headers = [(b"authorization", auth), (b"content-type", b"application/json")]
    assert _call(sim, headers, receive) == 413
    assert receive.consumed <= 64 * 1024 + 16 * 1024, "read past the limit"


def test_a_declared_length_over_the_limit_is_refused_before_reading() -> None:
    sim = Sim(small_config(max_body_bytes=64 * 1024))
    receive = _Receiver(b"x" * 16 * 1024, chunks=6400)
    auth = sim.auth()["Authorization"].encode()
    headers = [(b"authorization", auth), (b"content-length", b"104857600")]
    assert _call(sim, headers, receive) == 413 and receive.consumed == 0


def test_an_anonymous_body_is_never_read() -> None:
    sim = Sim(small_config())
    receive = _Receiver(b"x" * 16 * 1024, chunks=6400)
    assert _call(sim, [(b"content-type", b"application/json")], receive) == 401
    assert receive.consumed == 0
