"""The response rules judge single exchanges; these pin what each one accepts and rejects."""

from __future__ import annotations

import json
from typing import Any

import pytest

from billing_toolkit.conformance.checks import money, problem_json, request_id, retry_after, totals
from billing_toolkit.conformance.contract_facts import ContractFacts, load_facts
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.outcome import Status


@pytest.fixture(scope="module")
def facts() -> ContractFacts:
    return load_facts()


def exchange(
    path: str,
    status: int,
    body: Any,
    *,
    media: str = "application/json",
    headers: dict[str, str] | None = None,
    method: str = "GET",
) -> Exchange:
    return Exchange(
        method=method,
        url=f"http://api.test{path}",
        request_headers={},
        request_body=None,
        status=status,
        response_headers={"Content-Type": media, "X-Request-Id": "req-1", **(headers or {})},
        response_body=json.dumps(body).encode(),
    )


INVOICE = {
    "invoice_number": "INV-2026-004281",
    "line_items": [
        {"kind": "plan_charge", "description": "Fibra 100", "amount": "28.00"},
        {"kind": "discount", "description": "Promo", "amount": "-3.00"},
        {"kind": "tax", "description": "IVA 16%", "amount": "4.00"},
    ],
    "subtotal": "25.00",
    "tax": "4.00",
    "total": "29.00",
    "amount_paid": "10.00",
    "amount_due": "19.00",
}


def test_money_rejects_json_numbers_and_wrong_decimals(facts: ContractFacts) -> None:
    body = {"data": [{**INVOICE, "total": 29.0, "tax": "4.0"}]}
    problems = money.money_violations(
        exchange("/v1/customers/1000004821/invoices", 200, body), facts
    )
    assert problems == [
        "/data/0/tax '4.0' does not match ^-?(0|[1-9][0-9]{0,11})\\.[0-9]{2}$",
        "/data/0/total is the JSON float 29.0, not a decimal string",
    ]


def test_totals_accepts_a_consistent_invoice_and_names_each_broken_figure(
    facts: ContractFacts,
) -> None:
    assert (
        totals.totals_violations(exchange("/v1/invoices/INV-2026-004281", 200, INVOICE), facts)
        == []
    )
    broken = {**INVOICE, "total": "29.01", "amount_due": "19.00"}
    assert totals.totals_violations(
        exchange("/v1/invoices/INV-2026-004281", 200, broken), facts
    ) == [
        "INV-2026-004281: total is 29.01 but subtotal + tax is 29.00",
        "INV-2026-004281: amount_due is 19.00 but total - amount_paid is 19.01",
    ]


def test_totals_checks_payment_allocations(facts: ContractFacts) -> None:
    payment = {
        "payment_id": "PAY-0000012345",
        "amount": "40.00",
        "allocations": [{"invoice_number": "INV-2026-004281", "amount": "32.48"}],
        "unapplied_amount": "7.00",
    }
    assert totals.totals_violations(
        exchange("/v1/customers/1000004821/payments", 200, payment), facts
    ) == ["PAY-0000012345: amount is 40.00 but allocations 32.48 + unapplied 7.00 = 39.48"]


def problem(status: int, code: str) -> dict[str, Any]:
    return {"type": "https://x/p", "title": "t", "status": status, "code": code}


@pytest.mark.parametrize(
    ("path", "status", "body", "media", "expected"),
    [
        (
            "/v1/invoices/INV-2026-004281",
            404,
            problem(404, "invoice_not_found"),
            "application/problem+json",
            [],
        ),
        (
            "/v1/invoices/INV-2026-004281",
            404,
            problem(404, "customer_not_found"),
            "application/problem+json",
            ["code 'customer_not_found' where getInvoice documents 'invoice_not_found' for 404"],
        ),
        (
            "/v1/plans",
            500,
            problem(500, "internal"),
            "text/html",
            ["Content-Type is text/html, not application/problem+json"],
        ),
        (
            "/v1/plans",
            401,
            {"title": "x", "status": 403, "code": "nope"},
            "application/problem+json",
            [
                "member 'type' is missing",
                "body status 403 differs from HTTP status 401",
                "code 'nope' is not a documented ProblemCode",
            ],
        ),
    ],
)
def test_problem_json(
    facts: ContractFacts, path: str, status: int, body: Any, media: str, expected: list[str]
) -> None:
    assert (
        problem_json.problem_violations(exchange(path, status, body, media=media), facts)
        == expected
    )


def test_request_id_must_be_present_and_match_the_problem_body(facts: ContractFacts) -> None:
    bare = Exchange("GET", "http://api.test/v1/plans", {}, None, 200, {}, b"{}")
    assert request_id.request_id_violations(bare, facts) == ["no X-Request-Id header"]
    mismatch = exchange("/v1/plans", 404, {**problem(404, "not_found"), "request_id": "other"})
    assert request_id.request_id_violations(mismatch, facts) == [
        "problem request_id 'other' differs from X-Request-Id 'req-1'"
    ]


def test_rule_without_matching_responses_is_skipped_not_passed(facts: ContractFacts) -> None:
    outcome = retry_after.RULE.evaluate([exchange("/v1/plans", 200, {"data": []})], facts)
    assert outcome.status is Status.SKIPPED
    throttled = exchange(
        "/v1/plans", 429, problem(429, "rate_limited"), media="application/problem+json"
    )
    failed = retry_after.RULE.evaluate([throttled], facts)
    assert failed.status is Status.FAILED
    assert failed.first_violation is not None and failed.first_violation.exchange is throttled
