"""#27: fault injection and the request journal cover the contract 1.1 operations as they
cover every other one (a rule aimed at createPaymentReport or getExchangeRate fires; the
journal keeps a report with its payer's identifiers masked and its secrets redacted)."""

from __future__ import annotations

import json

from billing_toolkit.contract.masking import REDACTED, hide
from tests.simulator.conftest import Sim
from tests.simulator.test_payment_reports import report, usd_account

PHONE, NATIONAL_ID = "+584121234567", "V-12345678"


def test_a_rule_aimed_at_get_exchange_rate_fires_and_is_logged(sim: Sim) -> None:
    sim.control.faults.add("http_503", operation="getExchangeRate", times=1, retry_after_s=2)
    refused = sim.get("/v1/exchange-rates/2026-11-09")
    assert refused.status_code == 503 and refused.headers["retry-after"] == "2"
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert sim.get("/v1/exchange-rates/2026-11-09").status_code == 200  # times: 1
    [event] = sim.control.faults.events()
    assert (event.operation_id, event.kind) == ("getExchangeRate", "http_503")
    assert sim.control.requests.list(operation="getExchangeRate", status=503)[0]["faults"] == [
        "http_503"
    ]


def test_a_rule_aimed_at_create_payment_report_fires_before_anything_is_recorded(
    sim: Sim,
) -> None:
    account = usd_account(sim)
    listed = f"/v1/customers/{account}/payment-reports"
    before = sim.get(listed).json()["data"]
    sim.control.faults.add("not_found", operation="createPaymentReport", customer=account)
    refused = report(sim, account, "covered-key-0001")
    assert refused.status_code == 404 and refused.json()["code"] == "customer_not_found"
    assert sim.get(listed).json()["data"] == before
    other = str(sim.sample("overdue")["account_number"])
    assert report(sim, other, "covered-key-0002").status_code == 201  # another customer


def test_the_journal_masks_a_reports_payer_and_redacts_its_secrets(sim: Sim) -> None:
    account = usd_account(sim)
    made = sim.client.post(
        f"/v1/customers/{account}/payment-reports?access_token=sk_sim_leaked",
        headers={**sim.auth(), "Idempotency-Key": "covered-key-0003", "X-Client-Secret": "s3cr3t"},
        json={"method": "pago_movil", "amount": "1310.40", "currency": "VES",
              "reference": "0045127", "bank": "0134", "payment_date": "2026-11-10",
              "payer_phone": PHONE, "payer_national_id": NATIONAL_ID},
    )  # fmt: skip
    assert made.status_code == 201
    [entry] = sim.control.requests.list(operation="createPaymentReport")
    assert (
        entry["status"] == 201 and entry["path"] == f"/v1/customers/{hide(account)}/payment-reports"
    )
    assert entry["query"] == f"access_token={REDACTED}"
    assert (
        entry["headers"]["x-client-secret"] == REDACTED and "authorization" not in entry["headers"]
    )
    assert entry["headers"]["idempotency-key"] == "covered-key-0003"  # exempt by the policy
    body = entry["body"]
    assert (body["payer_phone"], body["payer_national_id"]) == (hide(PHONE), hide(NATIONAL_ID))
    assert (body["reference"], body["amount"]) == ("0045127", "1310.40")  # not identifiers
    seen = json.dumps(entry)
    for secret in (PHONE, NATIONAL_ID, account, "sk_sim_leaked", "s3cr3t"):
        assert secret not in seen
    assert sim.control.requests.count(body={"payer_national_id": NATIONAL_ID}) == 1
