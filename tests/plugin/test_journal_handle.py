"""`billing_sim.requests`: the request journal as a user's test suite reads it (via pytester)."""

from __future__ import annotations

import pytest

RUN = ("-p", "no:cacheprovider", "-q")

JOURNAL_SUITE = r"""
import pytest



def test_a_retry_is_counted_and_a_payment_never_made(billing_sim):
    account = billing_sim.sample("open_invoice")["account_number"]
    billing_sim.faults.add("http_503", operation="getBalance", times=2, retry_after_s=1)
    billing_sim.client.get_balance(account)  # the client retries through two 503s
    assert billing_sim.requests.count(operation="getBalance") == 3
    assert billing_sim.requests.count(operation="getBalance", status=503) == 2
    assert billing_sim.requests.count(operation="createPayment") == 0
    failed = billing_sim.requests.list(status=503)
    assert [entry["faults"] for entry in failed] == [["http_503"], ["http_503"]]
    assert account not in str(billing_sim.requests.list())


def test_the_body_a_client_sent_is_found_by_field(billing_sim):
    account = billing_sim.sample("overdue")["account_number"]
    billing_sim.http.post(
        f"/v1/customers/{account}/payments",
        headers={"Idempotency-Key": "qa-pay-1"},
        json={"amount": "3.00", "currency": "USD", "method": "pago_movil", "reference": "ref-77"},
    )
    [payment] = billing_sim.requests.list(body={"reference": "ref-77"})
    assert payment["operation_id"] == "createPayment" and payment["status"] == 201
    assert "authorization" not in payment["headers"]
    billing_sim.requests.clear()
    assert billing_sim.requests.count() == 0


def test_several_body_fields_must_all_hold_and_a_bad_path_is_named(billing_sim):
    account = billing_sim.sample("overdue")["account_number"]
    for key, amount in (("qa-a", "1.00"), ("qa-b", "2.00")):
        billing_sim.http.post(
            f"/v1/customers/{account}/payments",
            headers={"Idempotency-Key": key},
            json={"amount": amount, "currency": "USD", "method": "pago_movil", "reference": "r-9"},
        )
    assert billing_sim.requests.count(body={"reference": "r-9"}) == 2
    assert billing_sim.requests.count(body={"reference": "r-9", "amount": "2.00"}) == 1
    assert billing_sim.requests.count(body={"reference": "r-9", "currency": "EUR"}) == 0
    with pytest.raises(ValueError, match=r"body\['amount\.\.value'\]: is not a dotted field path"):
        billing_sim.requests.count(body={"amount..value": "5"})
    with pytest.raises(ValueError, match=r"body\['amount'\]: a value is a string"):
        billing_sim.requests.list(body={"amount": ["1.00"]})


def test_no_journal_read_shows_the_api_key(billing_sim):
    key = billing_sim.api_key
    billing_sim.http.get("/health/live", headers={"Cookie": f"session={key}"})
    billing_sim.http.get(f"/v1/customers/{billing_sim.sample('open_invoice')['account_number']}/balance")
    reads = str(billing_sim.requests.list()) + str(billing_sim.requests.list(operation="getBalance"))
    assert billing_sim.requests.count() == 2
    assert key not in reads and "authorization" not in reads.lower() and "cookie" not in reads.lower()


@pytest.mark.billing_sim(shared=True)
def test_shared_first(billing_sim):
    billing_sim.http.get("/health/live")
    assert billing_sim.requests.count() == 1


@pytest.mark.billing_sim(shared=True)
def test_shared_second_counts_only_its_own(billing_sim):
    assert billing_sim.requests.count() == 0


def test_the_server_fixture_journals_too(billing_sim_server):
    billing_sim_server.http.get("/health/live")
    [entry] = billing_sim_server.requests.list()
    assert entry["operation_id"] == "getLiveness" and entry["status"] == 200
"""


def test_the_journal_through_the_handle(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_journal=JOURNAL_SUITE)
    pytester.runpytest_inprocess(*RUN).assert_outcomes(passed=7)
