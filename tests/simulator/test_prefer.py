"""`Prefer: code=NNN` / `example=NAME`: the documented response, chosen per request.

The tests run with the reference validator and `raise_on_invalid_response`: every chosen
answer is checked against the contract's schema on its way out, so a problem body or an
example that broke the contract would fail the test, not pass it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.simulator.conftest import Sim, small_config


@pytest.fixture
def sim() -> Iterator[Sim]:
    simulator = Sim(small_config(allow_prefer=True))
    with simulator.client:
        yield simulator


def _balance_path(sim: Sim) -> str:
    return f"/v1/customers/{sim.sample('open_invoice')['account_number']}/balance"


def test_prefer_code_answers_that_documented_problem(sim: Sim) -> None:
    response = sim.get(_balance_path(sim), headers={"Prefer": "code=404"})
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "customer_not_found"
    assert response.json()["request_id"] == response.headers["x-request-id"]


def test_prefer_code_429_and_503_carry_retry_after(sim: Sim) -> None:
    for status in (429, 503):
        response = sim.get(_balance_path(sim), headers={"Prefer": f"code={status}"})
        assert response.status_code == status and response.headers["retry-after"] == "1"


def test_prefer_success_code_answers_the_operations_example(sim: Sim) -> None:
    example = sim.app.state.runtime.billing.operations["getBalance"].responses[200].examples
    response = sim.get(_balance_path(sim), headers={"Prefer": "code=200"})
    assert response.status_code == 200
    assert response.json() == example["application/json"]["owing"]


def test_prefer_example_by_name_and_with_code(sim: Sim) -> None:
    named = sim.get(_balance_path(sim), headers={"Prefer": "example=throttled"})
    assert named.status_code == 429 and named.json()["code"] == "rate_limited"
    both = sim.get(_balance_path(sim), headers={"Prefer": 'code=404, example="missing"'})
    assert both.status_code == 404


def test_a_chosen_answer_runs_no_billing(sim: Sim) -> None:
    account = sim.sample("open_invoice")["account_number"]
    before = sim.get(f"/v1/customers/{account}/payments").json()["data"]
    response = sim.client.post(
        f"/v1/customers/{account}/payments",
        headers={**sim.auth(), "Prefer": "code=201", "Idempotency-Key": "k-prefer-1"},
        json={"amount": "1.00", "currency": "USD", "method": "pago_movil", "reference": "1"},
    )
    assert response.status_code == 201 and response.json()["payment_id"] == "PAY-0000012345"
    assert sim.get(f"/v1/customers/{account}/payments").json()["data"] == before


def test_an_error_status_without_example_still_answers_a_valid_problem(sim: Sim) -> None:
    account = sim.sample("open_invoice")["account_number"]
    response = sim.client.post(
        f"/v1/customers/{account}/payments", headers={**sim.auth(), "Prefer": "code=413"}
    )
    assert response.status_code == 413 and response.json()["status"] == 413


@pytest.mark.parametrize(("prefer", "names"), [
    ("code=418", "codes: 200, 400, 401, 404, 429, 500, 502, 503, 504"),
    ("code=abc", "three-digit"),
    ("code=2000", "three-digit"),
    ("example=nope", "examples: badLimit, crashed, down, missing, missingKey, owing, throttled"),
    ("code=404, example=owing", "examples: missing"),
    ("example=", "must name an example"),
    ("code=404, code=500", "given twice"),
])  # fmt: skip
def test_undocumented_choices_are_refused_naming_the_allowed_values(
    sim: Sim, prefer: str, names: str
) -> None:
    response = sim.get(_balance_path(sim), headers={"Prefer": prefer})
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json"
    error = response.json()["errors"][0]
    assert error["field"] == "header.Prefer" and names in error["message"]


def test_refused_even_where_the_operation_documents_no_400(sim: Sim) -> None:
    response = sim.get("/v1/plans", headers={"Prefer": "code=404"})
    assert response.status_code == 400
    assert "codes: 200, 401, 429, 500, 502, 503, 504" in response.json()["detail"]


def test_authentication_applies_first(sim: Sim) -> None:
    response = sim.client.get(_balance_path(sim), headers={"Prefer": "code=200"})
    assert response.status_code == 401


def test_other_preferences_are_left_alone(sim: Sim) -> None:
    response = sim.get(_balance_path(sim), headers={"Prefer": "return=minimal, respond-async"})
    assert response.status_code == 200
    assert response.json()["account_number"] == sim.sample("open_invoice")["account_number"]


def test_off_by_default_the_header_is_ignored_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    sim = Sim(small_config())
    with sim.client, caplog.at_level("WARNING", logger="billing_sim"):
        real = sim.get(_balance_path(sim), headers={"Prefer": "code=404"})
        garbled = sim.get(_balance_path(sim), headers={"Prefer": "code=abc"})
    assert real.status_code == 200 and garbled.status_code == 200
    assert "--allow-prefer" in caplog.text
