"""Every request the client builds is valid under the contract; bad arguments never leave."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import Any

import httpx
import pytest
import respx

from billing_toolkit.client import BillingClient, ValidationError
from tests.client import payloads
from tests.client.openapi_requests import HttpxOpenAPIRequest

A = payloads.ACCOUNT

CALLS: list[tuple[str, Callable[[BillingClient], Any], httpx.Response]] = [
    ("getLiveness", lambda c: c.get_liveness(), payloads.ok({"status": "ok"})),
    ("getReadiness", lambda c: c.get_readiness(), payloads.ok({"status": "ready"})),
    (
        "lookupCustomer phone",
        lambda c: c.lookup_customer(phone="+584121234567"),
        payloads.ok(payloads.customer()),
    ),
    (
        "lookupCustomer national_id",
        lambda c: c.lookup_customer(national_id="J-12345678-9"),
        payloads.ok(payloads.customer()),
    ),
    (
        "lookupCustomer account",
        lambda c: c.lookup_customer(account_number=A),
        payloads.ok(payloads.customer()),
    ),
    ("getCustomer", lambda c: c.get_customer(A), payloads.ok(payloads.customer())),
    ("getSubscription", lambda c: c.get_subscription(A), payloads.ok(payloads.subscription())),
    ("listPlans", lambda c: c.list_plans(), payloads.ok({"data": [payloads.plan()]})),
    ("getBalance", lambda c: c.get_balance(A), payloads.ok(payloads.balance())),
    (
        "listInvoices",
        lambda c: c.list_invoices(A),
        payloads.ok(payloads.page([payloads.invoice()])),
    ),
    (
        "listInvoices filtered",
        lambda c: c.list_invoices(
            A,
            status="overdue",
            period_from=date(2026, 6, 1),
            period_to=date(2026, 11, 30),
            limit=5,
            cursor="aW52OjE",
        ),
        payloads.ok(payloads.page([])),
    ),
    ("getInvoice", lambda c: c.get_invoice("INV-2026-004281"), payloads.ok(payloads.invoice())),
    (
        "listPayments",
        lambda c: c.list_payments(A, limit=1),
        payloads.ok(payloads.page([payloads.payment()])),
    ),
    (
        "createPayment",
        lambda c: c.create_payment(
            A,
            amount=Decimal("45.00"),
            currency="USD",
            method="zelle",
            reference="004512873301",
            idempotency_key="pay-7f3a9c2e41d8",
        ),
        payloads.ok(payloads.payment(), status=201),
    ),
]


@pytest.mark.parametrize(("name", "call", "answer"), CALLS, ids=[c[0] for c in CALLS])
def test_request_is_valid_under_the_contract(
    name: str,
    call: Callable[[BillingClient], Any],
    answer: httpx.Response,
    api: respx.MockRouter,
    make_client: Callable[..., BillingClient],
    openapi: Any,
) -> None:
    route = api.route().mock(return_value=answer)
    call(make_client())
    request = route.calls.last.request
    openapi.validate_request(HttpxOpenAPIRequest(request))
    if name not in ("getLiveness", "getReadiness"):
        assert request.headers["Authorization"] == f"Bearer {payloads.API_KEY}"
    else:
        assert "Authorization" not in request.headers


WIRE: list[tuple[Callable[[BillingClient], Any], str]] = [
    (
        lambda c: c.lookup_customer(phone="+584121234567"),
        "/v1/customer-lookup?phone=%2B584121234567",
    ),
    (
        lambda c: c.lookup_customer(national_id="V-12345678"),
        "/v1/customer-lookup?national_id=V-12345678",
    ),
    (lambda c: c.get_invoice("INV-2026-004281"), "/v1/invoices/INV-2026-004281"),
    (lambda c: c.list_invoices(A), f"/v1/customers/{A}/invoices"),
    (
        lambda c: c.list_invoices(
            A, status="overdue", period_from=date(2026, 6, 1), limit=5, cursor="aW52OjE"
        ),
        f"/v1/customers/{A}/invoices?status=overdue&period_from=2026-06-01&limit=5&cursor=aW52OjE",
    ),
    (lambda c: c.list_payments(A, limit=1), f"/v1/customers/{A}/payments?limit=1"),
]


@pytest.mark.parametrize(("call", "target"), WIRE, ids=[w[1] for w in WIRE])
def test_arguments_reach_the_wire_and_omitted_ones_stay_out(
    call: Callable[[BillingClient], Any],
    target: str,
    api: respx.MockRouter,
    make_client: Callable[..., BillingClient],
) -> None:
    answers = {"customer-lookup": payloads.customer(), "invoices/": payloads.invoice()}
    body = next((v for k, v in answers.items() if k in target), payloads.page([]))
    route = api.route().mock(return_value=payloads.ok(body))
    call(make_client())
    assert route.calls.last.request.url.raw_path.decode() == target


def test_a_base_url_with_a_path_prefix_is_kept(api: respx.MockRouter) -> None:
    route = api.route().mock(return_value=payloads.ok(payloads.balance()))
    with BillingClient(f"{payloads.BASE_URL}/billing/", "k") as client:
        client.get_balance(A)
    assert route.calls.last.request.url.path == f"/billing/v1/customers/{A}/balance"


def test_payment_body_carries_money_as_a_decimal_string(
    api: respx.MockRouter, make_client: Callable[..., BillingClient]
) -> None:
    route = api.post(f"/v1/customers/{A}/payments").mock(
        return_value=payloads.ok(payloads.payment(), status=201)
    )
    make_client(idempotency_key_factory=lambda: "generated-key-0001").create_payment(
        A, amount=Decimal(1450), currency="VES", method="pago_movil"
    )
    request = route.calls.last.request
    assert request.content == b'{"amount":"1450.00","currency":"VES","method":"pago_movil"}'
    assert request.headers["Idempotency-Key"] == "generated-key-0001"


BAD_ARGUMENTS: list[tuple[str, Callable[[BillingClient], Any], str]] = [
    ("account with a leading zero", lambda c: c.get_balance("0123456789"), "path.accountNumber"),
    ("near-miss invoice number", lambda c: c.get_invoice("INV-2026-04281"), "path.invoiceNumber"),
    ("local phone format", lambda c: c.lookup_customer(phone="0412-1234567"), "query.phone"),
    (
        "cedula with dots",
        lambda c: c.lookup_customer(national_id="V-12.345.678"),
        "query.national_id",
    ),
    (
        "two lookup keys",
        lambda c: c.lookup_customer(phone="+584121234567", account_number=A),
        "query",
    ),
    ("no lookup key", lambda c: c.lookup_customer(), "query"),
    ("limit above 100", lambda c: c.list_invoices(A, limit=500), "query.limit"),
    ("unknown status", lambda c: c.list_invoices(A, status="late"), "query.status"),
    ("tampered cursor", lambda c: c.list_payments(A, cursor="../etc"), "query.cursor"),
    (
        "float money",
        lambda c: c.create_payment(A, amount=45.0, currency="USD", method="zelle"),  # type: ignore[arg-type]
        "body.amount",
    ),
    (
        "zero payment",
        lambda c: c.create_payment(A, amount=Decimal("0.00"), currency="USD", method="zelle"),
        "body.amount",
    ),
    (
        "three decimals",
        lambda c: c.create_payment(A, amount=Decimal("1.005"), currency="USD", method="zelle"),
        "body.amount",
    ),
    (
        "zelle in euros",
        lambda c: c.create_payment(A, amount=Decimal("5.00"), currency="EUR", method="zelle"),
        "body.currency",
    ),
    (
        "short idempotency key",
        lambda c: c.create_payment(
            A, amount=Decimal("5.00"), currency="USD", method="zelle", idempotency_key="k"
        ),
        "header.Idempotency-Key",
    ),
]


@pytest.mark.parametrize(
    ("name", "call", "field"), BAD_ARGUMENTS, ids=[b[0] for b in BAD_ARGUMENTS]
)
def test_bad_argument_is_a_local_validation_error_and_nothing_is_sent(
    name: str,
    call: Callable[[BillingClient], Any],
    field: str,
    api: respx.MockRouter,
    make_client: Callable[..., BillingClient],
) -> None:
    route = api.route()
    client = make_client()
    with pytest.raises(ValidationError) as caught:
        call(client)
    assert [p.field for p in caught.value.errors] == [field]
    assert route.call_count == 0
    assert client.breaker.snapshot.consecutive_failures == 0


def test_the_contract_check_itself_rejects_an_invalid_request(openapi: Any) -> None:
    """Guards the adapter: a request the contract refuses must fail validation."""
    from openapi_core.validation.request.exceptions import RequestValidationError

    bad = httpx.Request(
        "GET",
        f"{payloads.BASE_URL}/v1/customers/{A}/invoices?limit=500",
        headers={"Authorization": "Bearer k"},
    )
    with pytest.raises(RequestValidationError):
        openapi.validate_request(HttpxOpenAPIRequest(bad))
