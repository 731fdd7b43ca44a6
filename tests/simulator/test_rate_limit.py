"""The rate limiter: token buckets per API key (and per operation) on the fault clock.

The clock is a `ManualClock`: refills happen when the test moves it, never in real time."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from billing_toolkit.simulator.faults.clock import ManualClock
from billing_toolkit.simulator.rate_limit import RateLimiter, RateLimitError, parse_policy
from billing_toolkit.simulator.token_bucket import TokenBucket
from tests.simulator.conftest import ADMIN, Sim, small_config

OPERATIONS = ("getBalance", "listPlans")


@pytest.fixture
def sim() -> Iterator[Sim]:
    simulator = Sim(small_config(rate_limits=("3/min",)))
    with simulator.client:
        yield simulator


def _balance(sim: Sim, tenant: dict[str, object] | None = None) -> object:
    return sim.get(f"/v1/customers/{sim.sample('open_invoice', tenant)['account_number']}/balance",
                   tenant)  # fmt: skip


def test_the_bucket_refills_continuously() -> None:
    bucket = TokenBucket.full(3, 3 / 60, now=0.0)
    assert [bucket.take(0.0).allowed for _ in range(4)] == [True, True, True, False]
    refused = bucket.take(0.0)
    assert refused.retry_after_s == 20 and refused.reset_s == 60 and refused.remaining == 0
    assert not bucket.take(19.9).allowed
    assert bucket.take(20.0).allowed


def test_a_burst_past_the_limit_gets_429_with_retry_after_and_ratelimit_headers(sim: Sim) -> None:
    statuses = [_balance(sim).status_code for _ in range(4)]  # type: ignore[attr-defined]
    assert statuses == [200, 200, 200, 429]
    refused = _balance(sim)
    assert refused.headers["content-type"] == "application/problem+json"  # type: ignore[attr-defined]
    assert refused.json()["code"] == "rate_limited"  # type: ignore[attr-defined]
    assert refused.headers["retry-after"] == "20"  # type: ignore[attr-defined]
    assert refused.headers["ratelimit-policy"] == '"per-key";q=3;w=60'  # type: ignore[attr-defined]
    assert refused.headers["ratelimit"] == '"per-key";r=0;t=60'  # type: ignore[attr-defined]


def test_waiting_retry_after_on_the_clock_is_enough(sim: Sim) -> None:
    for _ in range(3):
        _balance(sim)
    wait = int(_balance(sim).headers["retry-after"])  # type: ignore[attr-defined]
    sim.clock.advance(wait - 0.5)
    assert _balance(sim).status_code == 429  # type: ignore[attr-defined]
    sim.clock.advance(0.5)
    assert _balance(sim).status_code == 200  # type: ignore[attr-defined]


def test_each_api_key_has_its_own_bucket_and_health_is_not_limited(sim: Sim) -> None:
    for _ in range(3):
        _balance(sim)
    assert _balance(sim).status_code == 429  # type: ignore[attr-defined]
    assert _balance(sim, sim.llanolink).status_code == 200  # type: ignore[attr-defined]
    assert all(sim.client.get("/health/live").status_code == 200 for _ in range(5))


def test_an_unauthenticated_request_is_401_and_takes_no_token(sim: Sim) -> None:
    path = f"/v1/customers/{sim.sample('open_invoice')['account_number']}/balance"
    assert all(sim.client.get(path).status_code == 401 for _ in range(5))
    assert _balance(sim).status_code == 200  # type: ignore[attr-defined]


def test_per_operation_policies_add_to_the_key_wide_one(sim: Sim) -> None:
    sim.control.rate_limits.set("100/s", "getBalance=1/s")
    assert [_balance(sim).status_code for _ in range(2)] == [200, 429]  # type: ignore[attr-defined]
    refused = _balance(sim)
    assert refused.headers["ratelimit-policy"] == '"getBalance";q=1;w=1'  # type: ignore[attr-defined]
    assert sim.get("/v1/plans").status_code == 200


def test_a_refused_request_takes_no_token_of_other_policies() -> None:
    clock = ManualClock(0.0)
    limiter = RateLimiter(clock, [parse_policy("2/min", OPERATIONS),
                                  parse_policy("getBalance=1/min", OPERATIONS)])  # fmt: skip
    assert limiter.take("k", "getBalance").verdict.allowed  # type: ignore[union-attr]
    assert not limiter.take("k", "getBalance").verdict.allowed  # type: ignore[union-attr]
    assert limiter.take("k", "listPlans").verdict.allowed  # type: ignore[union-attr]


def test_star_gives_each_operation_its_own_bucket() -> None:
    limiter = RateLimiter(ManualClock(0.0), [parse_policy("*=1/s", OPERATIONS)])
    assert limiter.take("k", "getBalance").verdict.allowed  # type: ignore[union-attr]
    assert limiter.take("k", "listPlans").verdict.allowed  # type: ignore[union-attr]
    assert not limiter.take("k", "listPlans").verdict.allowed  # type: ignore[union-attr]


def test_the_admin_api_sets_lists_and_clears_the_policies(sim: Sim) -> None:
    put = sim.client.put("/_sim/rate-limits", headers=ADMIN, json={"limits": ["1/s"]})
    assert put.status_code == 200
    assert put.json() == {"data": [{"limit": "1/s", "requests": 1, "window_s": 1.0}]}
    assert sim.client.get("/_sim/rate-limits", headers=ADMIN).json() == put.json()
    assert [_balance(sim).status_code for _ in range(2)] == [200, 429]  # type: ignore[attr-defined]
    assert sim.client.delete("/_sim/rate-limits", headers=ADMIN).status_code == 204
    assert all(_balance(sim).status_code == 200 for _ in range(5))  # type: ignore[attr-defined]


@pytest.mark.parametrize(("limits", "field", "says"), [
    (["20/day"], "body.limits[0]", "unknown unit"),
    (["fast"], "body.limits[0]", "not a rate"),
    (["0/s"], "body.limits[0]", "[1, 1000000]"),
    (["1/s", "getBalanc=2/s"], "body.limits[1]", "unknown operationId 'getBalanc'"),
    (["1/s", "2/min"], "body.limits", "same scope"),
])  # fmt: skip
def test_bad_policies_through_the_admin_api_are_400_naming_the_field(
    sim: Sim, limits: list[str], field: str, says: str
) -> None:
    response = sim.client.put("/_sim/rate-limits", headers=ADMIN, json={"limits": limits})
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["field"] == field and says in error["message"]
    assert sim.control.rate_limits.list() == [
        {"limit": "3/min", "requests": 3, "window_s": 60.0}
    ]  # nothing half-applied


def test_a_non_string_policy_is_refused_by_the_admin_contract(sim: Sim) -> None:
    response = sim.client.put("/_sim/rate-limits", headers=ADMIN, json={"limits": [20]})
    assert response.status_code == 400


def test_a_bad_policy_at_start_is_refused() -> None:
    with pytest.raises(RateLimitError, match="rate limit: 'twenty/s' is not a rate"):
        Sim(small_config(rate_limits=("twenty/s",)))


def test_limiter_off_by_default() -> None:
    sim = Sim(small_config())
    with sim.client:
        assert all(_balance(sim).status_code == 200 for _ in range(20))  # type: ignore[attr-defined]


@pytest.mark.parametrize("value", ["5/fortnight", "getBalanc=1/s", "abc", "0/s"])
def test_a_bad_rate_limit_on_the_command_line_is_one_line_and_exit_2(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from billing_toolkit.simulator.cli import main

    assert main(["serve", "--port", "0", "--customers", "16", "--rate-limit", value]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("billing-sim: rate limit:")
