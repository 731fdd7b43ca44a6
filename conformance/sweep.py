"""The kit's baseline traffic: one successful request per read operation, a few errors.

The response rules need responses to judge even when schemathesis is not selected
(`--checks money,totals`), and operation_coverage needs each read operation to have been
called with data that exists. With --rate-limit-probe N the sweep ends with a burst of up
to N requests, stopping at the first 429, so retry_after has something to judge.
"""

from __future__ import annotations

from conformance.discovery import TestData
from conformance.http import ApiSession

PROBE_PATH = "/v1/plans"


def sweep(session: ApiSession, data: TestData, customer_phone: str | None) -> None:
    """Call every read operation once with the test data, plus requests that must fail."""
    account = data.account_number
    session.get("/health/live")
    session.get("/health/ready")
    session.get("/v1/plans")
    session.get("/v1/customer-lookup", params={"account_number": account})
    if customer_phone is not None:
        session.get("/v1/customer-lookup", params={"phone": customer_phone})
    for suffix in ("", "/subscription", "/balance", "/invoices", "/payments"):
        session.get(f"/v1/customers/{account}{suffix}")
    if data.invoice_number is not None:
        session.get(f"/v1/invoices/{data.invoice_number}")
    session.get("/v1/invoices/INV-0001-000001")
    session.get(f"/v1/customers/{account}/invoices", params={"limit": "0"})
    session.get("/v1/customer-lookup")
    session.get("/v1/plans", headers={"X-Request-Id": "conformance-echo-0001"})


def provoke_rate_limit(session: ApiSession, attempts: int) -> int:
    """Send up to `attempts` requests back to back; the number sent before the first 429."""
    for sent in range(1, attempts + 1):
        if session.get(PROBE_PATH).status == 429:
            return sent
    return attempts
