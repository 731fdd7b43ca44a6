"""How long the conformance kit's response rules take per response, against JSON parsing.

The rules run over every exchange of a run (the kit's and all schemathesis generated), so
their cost scales with --max-examples and --fuzz-time. Baseline, measured in the same run:
parsing the same bodies with json.loads, the least any rule must do. Bounded: a few seconds.

    .venv/bin/python benchmarks/conformance_rules.py
"""

from __future__ import annotations

import json
import time

from billing_toolkit.conformance.checks import RESPONSE_RULES
from billing_toolkit.conformance.contract_facts import load_facts
from billing_toolkit.conformance.exchange import Exchange

RESPONSES = 2000
INVOICES_PER_PAGE = 20


def _invoice(sequence: int) -> dict[str, object]:
    return {
        "invoice_number": f"INV-2026-{sequence:06d}",
        "account_number": "1000004821",
        "status": "paid",
        "currency": "USD",
        "line_items": [
            {"kind": "plan_charge", "description": "Fibra 100", "amount": "28.00"},
            {"kind": "tax", "description": "IVA 16%", "amount": "4.48"},
        ],
        "subtotal": "28.00",
        "tax": "4.48",
        "total": "32.48",
        "amount_paid": "32.48",
        "amount_due": "0.00",
    }


def _exchanges() -> list[Exchange]:
    page = {"data": [_invoice(i) for i in range(INVOICES_PER_PAGE)], "next_cursor": None}
    body = json.dumps(page).encode()
    return [
        Exchange(
            method="GET",
            url="http://127.0.0.1:8080/v1/customers/1000004821/invoices?limit=20",
            request_headers={},
            request_body=None,
            status=200,
            response_headers={"content-type": "application/json", "x-request-id": f"req-{n}"},
            response_body=body,
        )
        for n in range(RESPONSES)
    ]


def main() -> None:
    facts = load_facts()
    baseline_exchanges = _exchanges()
    started = time.perf_counter()
    for exchange in baseline_exchanges:
        json.loads(exchange.response_body)
    baseline = time.perf_counter() - started

    judged = _exchanges()
    started = time.perf_counter()
    for rule in RESPONSE_RULES:
        rule.evaluate(judged, facts)
    rules = time.perf_counter() - started

    print(f"responses: {RESPONSES} invoice pages of {INVOICES_PER_PAGE} invoices")
    print(f"baseline json.loads: {baseline * 1e6 / RESPONSES:8.1f} µs/response")
    print(f"all response rules:  {rules * 1e6 / RESPONSES:8.1f} µs/response")
    print(f"ratio rules/baseline: {rules / baseline:.1f}x")


if __name__ == "__main__":
    main()
