"""Every answer maps to the right failure family, and a broken answer never half-parses."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
import respx

from billing_toolkit.client import (
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    BillingClient,
    BusinessError,
    ContractViolationError,
    CustomerNotFoundError,
    IdempotencyConflictError,
    InfrastructureError,
    InvoiceNotFoundError,
    MalformedResponseError,
    NotFoundError,
    RateLimitError,
    RetryPolicy,
    ServerError,
    ValidationError,
)
from tests.client import payloads

A = payloads.ACCOUNT
BALANCE = f"/v1/customers/{A}/balance"
INVOICE = "/v1/invoices/INV-2026-004281"
PAYMENTS = f"/v1/customers/{A}/payments"


@pytest.fixture
def client(make_client: Callable[..., BillingClient]) -> BillingClient:
    return make_client(retry=RetryPolicy(max_attempts=1))


BUSINESS = [
    (
        "customer_not_found",
        BALANCE,
        payloads.problem(404, "customer_not_found"),
        CustomerNotFoundError,
    ),
    (
        "invoice_not_found",
        INVOICE,
        payloads.problem(404, "invoice_not_found"),
        InvoiceNotFoundError,
    ),
    ("validation_error 400", BALANCE, payloads.problem(400, "validation_error"), ValidationError),
    (
        "unauthorized",
        BALANCE,
        payloads.problem(401, "unauthorized", WWW_Authenticate="Bearer"),
        AuthenticationError,
    ),
]


@pytest.mark.parametrize(
    ("name", "path", "answer", "error"), BUSINESS, ids=[b[0] for b in BUSINESS]
)
def test_business_answers(
    name: str,
    path: str,
    answer: httpx.Response,
    error: type[BusinessError],
    api: respx.MockRouter,
    client: BillingClient,
) -> None:
    api.get(path).mock(return_value=answer)
    call = client.get_invoice if path == INVOICE else client.get_balance
    with pytest.raises(error) as caught:
        call("INV-2026-004281" if path == INVOICE else A)
    assert caught.value.code == name.split()[0]
    assert caught.value.status == answer.status_code
    assert caught.value.request_id == "req-problem"
    assert not isinstance(caught.value, InfrastructureError)


def test_not_found_is_catchable_at_the_family_level(
    api: respx.MockRouter, client: BillingClient
) -> None:
    api.get(INVOICE).mock(return_value=payloads.problem(404, "invoice_not_found"))
    with pytest.raises(NotFoundError):
        client.get_invoice("INV-2026-004281")


def test_validation_problem_keeps_each_field(api: respx.MockRouter, client: BillingClient) -> None:
    answer = payloads.problem(422, "validation_error")
    body = answer.json() | {
        "errors": [{"field": "body.currency", "message": "the account is billed in USD"}]
    }
    api.post(PAYMENTS).mock(return_value=httpx.Response(422, json=body, headers=answer.headers))
    with pytest.raises(ValidationError) as caught:
        client.create_payment(
            A, amount=__import__("decimal").Decimal("5.00"), currency="VES", method="cash"
        )
    assert [(e.field, e.message) for e in caught.value.errors] == [
        ("body.currency", "the account is billed in USD")
    ]


def test_idempotency_conflict(api: respx.MockRouter, client: BillingClient) -> None:
    from decimal import Decimal

    api.post(PAYMENTS).mock(return_value=payloads.problem(409, "idempotency_conflict"))
    with pytest.raises(IdempotencyConflictError):
        client.create_payment(
            A, amount=Decimal("5.00"), currency="USD", method="cash", idempotency_key="same-key-123"
        )


INFRASTRUCTURE = [
    ("429", payloads.problem(429, "rate_limited", Retry_After="7"), RateLimitError, 7.0),
    ("500", payloads.problem(500, "internal"), ServerError, None),
    (
        "502 html from a proxy",
        httpx.Response(502, text="<html>Bad Gateway</html>"),
        ServerError,
        None,
    ),
    ("503", payloads.problem(503, "unavailable", Retry_After="3"), ServerError, 3.0),
    ("504", payloads.problem(504, "unavailable"), ServerError, None),
]


@pytest.mark.parametrize(
    ("name", "answer", "error", "retry_after"), INFRASTRUCTURE, ids=[i[0] for i in INFRASTRUCTURE]
)
def test_infrastructure_answers(
    name: str,
    answer: httpx.Response,
    error: type[InfrastructureError],
    retry_after: float | None,
    api: respx.MockRouter,
    client: BillingClient,
) -> None:
    api.get(BALANCE).mock(return_value=answer)
    with pytest.raises(error) as caught:
        client.get_balance(A)
    assert caught.value.status == answer.status_code
    assert caught.value.retry_after == retry_after
    assert not isinstance(caught.value, BusinessError)


TRANSPORT = [
    ("connect refused", httpx.ConnectError("refused"), APIConnectionError),
    ("reset", httpx.ReadError("connection reset by peer"), APIConnectionError),
    (
        "empty response",
        httpx.RemoteProtocolError("Server disconnected without sending a response."),
        APIConnectionError,
    ),
    ("connect timeout", httpx.ConnectTimeout("slow"), APITimeoutError),
    ("read timeout", httpx.ReadTimeout("slow"), APITimeoutError),
]


@pytest.mark.parametrize(("name", "failure", "error"), TRANSPORT, ids=[t[0] for t in TRANSPORT])
def test_transport_failures(
    name: str,
    failure: Exception,
    error: type[InfrastructureError],
    api: respx.MockRouter,
    client: BillingClient,
) -> None:
    api.get(BALANCE).mock(side_effect=failure)
    with pytest.raises(error) as caught:
        client.get_balance(A)
    assert caught.value.operation_id == "getBalance"
    assert A not in str(caught.value), "errors never echo the URL (it holds the account number)"


VIOLATIONS = [
    (
        "undeclared status",
        httpx.Response(418, json={}, headers={"X-Request-Id": "r"}),
        ContractViolationError,
    ),
    (
        "html 404 from a proxy",
        httpx.Response(404, text="<h1>Not Found</h1>", headers={"X-Request-Id": "r"}),
        ContractViolationError,
    ),
    (
        "404 problem with an infrastructure code",
        payloads.problem(404, "internal"),
        ContractViolationError,
    ),
    (
        "404 problem with a code of another status",
        payloads.problem(404, "validation_error"),
        ContractViolationError,
    ),
    (
        "problem missing its code",
        httpx.Response(
            404,
            json={"type": "x", "title": "t", "status": 404},
            headers={"Content-Type": "application/problem+json"},
        ),
        ContractViolationError,
    ),
    (
        "money as a JSON number",
        payloads.ok(payloads.balance(amount_due=45.0)),
        ContractViolationError,
    ),
    (
        "money with one decimal",
        payloads.ok(payloads.balance(amount_due="45.0")),
        ContractViolationError,
    ),
    (
        "missing field",
        payloads.ok({k: v for k, v in payloads.balance().items() if k != "net_balance"}),
        ContractViolationError,
    ),
    ("extra field", payloads.ok(payloads.balance(tip="1.00")), ContractViolationError),
    (
        "number as a string",
        payloads.ok({"data": [payloads.plan() | {"download_mbps": "100"}]}),
        ContractViolationError,
    ),
    ("missing X-Request-Id", httpx.Response(200, json=payloads.balance()), ContractViolationError),
    (
        "truncated JSON",
        httpx.Response(
            200,
            content=b'{"account_number": "10000',
            headers={"Content-Type": "application/json", "X-Request-Id": "r"},
        ),
        MalformedResponseError,
    ),
    (
        "empty body",
        httpx.Response(
            200, content=b"", headers={"Content-Type": "application/json", "X-Request-Id": "r"}
        ),
        MalformedResponseError,
    ),
    (
        "not JSON at all",
        httpx.Response(200, text="<html>ok</html>", headers={"X-Request-Id": "r"}),
        MalformedResponseError,
    ),
]


@pytest.mark.parametrize(("name", "answer", "error"), VIOLATIONS, ids=[v[0] for v in VIOLATIONS])
def test_contract_violations_are_infrastructure_never_half_parsed(
    name: str,
    answer: httpx.Response,
    error: type[ContractViolationError],
    api: respx.MockRouter,
    client: BillingClient,
) -> None:
    api.get(BALANCE).mock(return_value=answer)
    api.get("/v1/plans").mock(return_value=answer)
    call = client.list_plans if name == "number as a string" else lambda: client.get_balance(A)
    with pytest.raises(error) as caught:
        call()
    assert isinstance(caught.value, InfrastructureError)
    assert type(caught.value) is error
