"""The fast engine gives the reference engine's verdicts (same status, same fields).

The table holds the cases that once split them; the property sends both the same generated
requests — every billing operation, its parameters given once, twice or not at all, with
values from the contract's examples and from the edges (a trailing newline, a sign, spaces,
huge numbers), and JSON bodies with and without a `Content-Type` — and asks for the same
verdict. The rules where they used to differ are decided once for both (the contract's
`pattern`s mean ECMA-262 anchors; a scalar query parameter is given once; a body's media
type is declared, never guessed).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

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
    (
        "POST",
        f"/v1/customers/{ACCOUNT}/payments",
        {"content": b'{"amount":"1.00","currency":"USD","method":"cash"}', "key": "engine-key-6",
         "untyped": True},
    ),
    (
        "POST",
        f"/v1/customers/{ACCOUNT}/payments",
        {"json": {"amount": "1.00\n", "currency": "USD", "method": "cash"}, "key": "engine-key-7"},
    ),
    ("GET", "/v1/customer-lookup", {"params": [("phone", "+584121234567"), ("phone", "B")]}),
    ("GET", f"/v1/customers/{ACCOUNT}/invoices", {"params": [("limit", "1"), ("limit", "500")]}),
]  # fmt: skip


def _call(sim: Sim, method: str, path: str, options: dict[str, Any]) -> tuple[int, list[str]]:
    options = dict(options)
    headers = sim.auth()
    if "key" in options:
        headers["Idempotency-Key"] = options.pop("key")
    if "content" in options and not options.pop("untyped", False):
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


def test_the_disputed_cases_are_decided_by_the_contract() -> None:
    """What the engines used to disagree on, as both now answer it."""
    sim = Sim(small_config(validation_engine="compiled"))
    verdicts = [_call(sim, method, path, options) for method, path, options in CASES[-4:]]
    assert verdicts == [
        (400, ["header.Content-Type"]),
        (400, ["body.amount"]),
        (400, ["query.phone"]),
        (400, ["query.limit"]),
    ]


QUERY_VALUES = st.sampled_from(
    ["1", "100", "101", "0", "-1", "1.5", " 1", "1\n", "10" * 20, "", "paid", "open", "x y",
     "2026-01-01", "2026-02-30", "2026-01-01\n", "+584121234567", "+584121234567\n",
     "V-12345678", "J-12345678-9", ACCOUNT, f"{ACCOUNT}\n", "INV-2026-004281"]
) | st.text(max_size=12)  # fmt: skip
PATH_VALUES = st.sampled_from([ACCOUNT, "2000000000", "123", f"{ACCOUNT}0", "INV-2026-004281",
                               "INV-26-1", "abc"])  # fmt: skip
BODY_FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "amount": st.sampled_from(["1.00", "0.00", "-1.00", "1.0", "1.00\n", "1e3", 1, None]),
        "currency": st.sampled_from(["USD", "VES", "usd", "EUR", 1]),
        "method": st.sampled_from(["cash", "zelle", "barter", ""]),
        "reference": st.text(max_size=70),
        "extra": st.integers(),
    },
)


@st.composite
def _generated(draw: st.DrawFn, operations: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    operation = operations[draw(st.sampled_from(sorted(operations)))]
    path = operation.path.template
    for name in operation.path.parameters if hasattr(operation.path, "parameters") else []:
        path = path.replace("{" + name + "}", draw(PATH_VALUES))
    while "{" in path:
        start = path.index("{")
        path = path[:start] + draw(PATH_VALUES) + path[path.index("}") + 1 :]
    params: list[tuple[str, str]] = []
    for parameter in operation.parameters:
        if parameter.location != "query":
            continue
        for _ in range(draw(st.sampled_from([0, 1, 1, 2]))):
            params.append((parameter.name, draw(QUERY_VALUES)))
    options: dict[str, Any] = {"params": params}
    if operation.body_media is not None:
        options["key"] = draw(st.sampled_from(["prop-engine-key-1", "short", "prop-engine-key-2"]))
        if draw(st.booleans()):
            options["json"] = draw(BODY_FIELDS)
        else:
            options["content"] = draw(st.sampled_from([b"", b"{", b"[]", b'"x"', b"null"]))
            options["untyped"] = draw(st.booleans())
    return operation.method.upper(), path, options


def test_engines_agree_on_generated_requests() -> None:
    reference = Sim(small_config(validation_engine="openapi-core"))
    fast = Sim(small_config(validation_engine="compiled"))
    operations = reference.app.state.runtime.billing.operations

    @settings(max_examples=200, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
    @given(request=_generated(operations))
    def agree(request: tuple[str, str, dict[str, Any]]) -> None:
        method, path, options = request
        note(f"{method} {path} {options}")
        assert _call(fast, method, path, dict(options)) == _call(
            reference, method, path, dict(options)
        )

    agree()
