"""The request path's shortcuts (issue 28) keep the answers they replaced: one contract
match per request, metrics tallies exposed exactly as `prometheus_client`'s own metrics,
the log line's timestamp, and read-only shared defaults."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from starlette.testclient import TestClient
from starlette.types import Message, Receive, Scope, Send

from billing_toolkit.contract.matching import Match, OperationMatcher
from billing_toolkit.simulator.logs import _Timestamps
from billing_toolkit.simulator.metrics import _BUCKETS, RequestMetrics
from billing_toolkit.simulator.validation import ValidatedRequest
from tests.simulator.conftest import ADMIN, Sim, small_config


@pytest.fixture(scope="module")
def quick() -> Iterator[Sim]:
    """The default engine (what `serve` runs), one app for the module's tests."""
    sim = Sim(small_config(validation_engine="compiled"))
    with sim.client:
        yield sim


def _counting(matcher: OperationMatcher) -> tuple[list[tuple[str, str]], Callable[[], None]]:
    """Every `match` call on `matcher` from now on, and a function that stops counting."""
    calls: list[tuple[str, str]] = []
    original = matcher.match

    def match(method: str, path: str) -> Match | None:
        calls.append((method, path))
        return original(method, path)

    matcher.match = match  # type: ignore[method-assign]
    return calls, lambda: vars(matcher).pop("match")


@pytest.mark.parametrize(
    "request_of",
    [
        lambda sim, account: ("GET", f"/v1/customers/{account}/balance", sim.auth()),
        lambda sim, account: ("GET", "/v1/no-such-thing", sim.auth()),
        lambda sim, account: ("GET", "/_sim/requests", ADMIN),
        lambda sim, account: ("POST", f"/v1/customers/{account}/balance", sim.auth()),
    ],
    ids=["operation", "unknown path", "admin", "wrong method"],
)
def test_each_request_is_matched_against_the_contract_once(
    quick: Sim, request_of: Callable[[Sim, str], tuple[str, str, dict[str, str]]]
) -> None:
    """Metrics, fault injection, dispatch and the journal all need the operation: before,
    the metrics layer and dispatch matched the path each on their own."""
    method, path, headers = request_of(quick, quick.sample("open_invoice")["account_number"])
    calls, stop = _counting(quick.app.state.runtime.matcher)
    try:
        quick.client.request(method, path, headers=headers)
        quick.client.request(method, path, headers=headers)
    finally:
        stop()
    assert calls == [(method, path)] * 2


def test_a_fault_answer_is_matched_once_too(quick: Sim) -> None:
    """With a rule active, fault injection asks first; the journal then records the fault's
    answer (no endpoint ran) and the metrics count it, neither matching again."""
    account = quick.sample("open_invoice")["account_number"]
    quick.control.faults.add("http_503", operation="getBalance", times=1)
    calls, stop = _counting(quick.app.state.runtime.matcher)
    try:
        answer = quick.get(f"/v1/customers/{account}/balance")
    finally:
        stop()
        quick.control.faults.clear()
    assert answer.status_code == 503
    assert calls == [("GET", f"/v1/customers/{account}/balance")]
    (entry,) = quick.control.requests.list(limit=1)
    assert entry["operation_id"] == "getBalance" and entry["faults"] == ["http_503"]


def test_a_wrapper_that_calls_again_for_another_path_gets_that_path(quick: Sim) -> None:
    """An application wrapping the simulator (the conformance kit's broken servers do) may
    call it again with a copy of the scope for another path: the copy carries the first
    path's kept match, which must not answer for the second."""
    account = quick.sample("open_invoice")["account_number"]

    async def second_answer(scope: Scope, receive: Receive, send: Send) -> None:
        async def discard(message: Message) -> None:
            return None

        await quick.app(scope, receive, discard)
        path = f"/v1/customers/{account}/subscription"
        await quick.app({**scope, "path": path, "raw_path": path.encode()}, receive, send)

    answer = TestClient(second_answer).get(f"/v1/customers/{account}/balance", headers=quick.auth())
    assert answer.status_code == 200 and "plan" in answer.json()
    assert "amount_due" not in answer.json()


def test_metrics_are_not_counted_and_carry_no_request_id(quick: Sim) -> None:
    """`/metrics` is answered before anything else, as when it was a layer of its own."""
    first, second = quick.client.get("/metrics"), quick.client.get("/metrics")
    assert second.status_code == 200 and "x-request-id" not in second.headers
    assert _unmatched_200(first.text) == _unmatched_200(second.text)


def _unmatched_200(text: str) -> float:
    found = re.search(
        r'^billing_sim_requests_total\{operation="unmatched",status="200"\} (\S+)$',
        text,
        re.MULTILINE,
    )
    return float(found.group(1)) if found else 0.0


def _prometheus_own(observations: list[tuple[str, int, float, tuple[str, ...]]]) -> str:
    """What `prometheus_client`'s Counter and Histogram expose for `observations`."""
    registry = CollectorRegistry()
    requests = Counter(
        "billing_sim_requests_total",
        "Requests answered, by contract operation and HTTP status.",
        ["operation", "status"],
        registry=registry,
    )
    faults = Counter(
        "billing_sim_faults_injected_total",
        "Faults injected into requests, by kind.",
        ["kind"],
        registry=registry,
    )
    latency = Histogram(
        "billing_sim_request_duration_seconds",
        "Time to answer a request, by contract operation.",
        ["operation"],
        buckets=_BUCKETS,
        registry=registry,
    )
    for operation, status, seconds, kinds in observations:
        latency.labels(operation).observe(seconds)
        requests.labels(operation, str(status)).inc()
        for kind in kinds:
            faults.labels(kind).inc()
    return generate_latest(registry).decode()


def _samples(text: str) -> dict[str, float]:
    """The exposition's samples by name and labels, minus the `_created` timestamps (when
    each series began) and the comments."""
    pairs = (line.rsplit(" ", 1) for line in text.splitlines() if not line.startswith("#"))
    return {name: float(value) for name, value in pairs if "_created" not in name}


def test_the_tallies_expose_what_prometheus_client_itself_would() -> None:
    """Seeded observations, bounds hit exactly (`le` includes its bound), past the last
    bound, a request that died (status None: the client saw a 500) and faults."""
    rng = random.Random(28)
    observations: list[tuple[str, int, float, tuple[str, ...]]] = [
        ("getBalance", 200, 0.001, ()),
        ("getBalance", 200, 0.0010001, ()),
        ("getBalance", 200, 10.0, ()),
        ("getBalance", 200, 12.5, ()),
        ("unmatched", 404, 0.0, ()),
    ]
    for _ in range(300):
        observations.append(
            (
                rng.choice(["getBalance", "createPayment", "unmatched"]),
                rng.choice([200, 201, 400, 404, 503]),
                rng.choice([*_BUCKETS, rng.uniform(0, 0.2), rng.expovariate(20)]),
                tuple(rng.sample(["http_503", "latency", "timeout"], rng.randint(0, 2))),
            )
        )
    metrics = RequestMetrics()
    for operation, status, seconds, kinds in observations:
        metrics.observe(operation, status, seconds, kinds)
    metrics.observe("getBalance", None, 0.02, ())
    expected = _prometheus_own([*observations, ("getBalance", 500, 0.02, ())])
    exposed = generate_latest(metrics.registry).decode()
    # sums may differ in the last digits: float additions in another order
    assert _samples(exposed) == pytest.approx(_samples(expected), rel=1e-12)
    assert [line for line in exposed.splitlines() if line.startswith("#")] == [
        line for line in expected.splitlines() if line.startswith("#")
    ]
    created = re.findall(r"^(\w+_created)\{", exposed, re.MULTILINE)
    assert set(created) == set(re.findall(r"^(\w+_created)\{", expected, re.MULTILINE))


@pytest.mark.parametrize(
    ("created", "expected"),
    [
        (1796176037.0, "2026-12-02T01:47:17.000Z"),
        (1796176037.123456, "2026-12-02T01:47:17.123Z"),
        (1796176037.9995, "2026-12-02T01:47:17.999Z"),
        (1 - 2**-53, "1970-01-01T00:00:00.999Z"),  # a fraction that rounds up to 1000 ms
    ],
)
def test_log_timestamps_keep_milliseconds(created: float, expected: str) -> None:
    assert _Timestamps().format(created) == expected


def test_a_validated_request_shares_only_read_only_defaults() -> None:
    """A NamedTuple's defaults are one object for every request: a handler that wrote into
    one would leak into the next request's, so they refuse writes."""
    first, second = ValidatedRequest(), ValidatedRequest(path={"accountNumber": "1"})
    empty: Any = first.query
    with pytest.raises(TypeError):
        empty["limit"] = 500
    assert second.query == {} and second.path == {"accountNumber": "1"}
