"""Pointed at something that is not the billing API, the kit says what it saw and stops.

A web page answering 200, a proxy's 500, some other JSON API: each is held to the contract
(documented status, media type and schema) on the discovery requests, and the run stops
with one line naming the request and what came back, identifiers masked, instead of
"account not found" or taking `{"hello": "world"}` as the customer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from billing_toolkit.conformance.calls import Call
from billing_toolkit.conformance.contract_facts import load_facts
from billing_toolkit.conformance.discovery import discover
from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.http import MAX_RESPONSE_BYTES, ApiSession
from billing_toolkit.conformance.runner import CHECK_NAMES
from billing_toolkit.conformance.settings import build_settings
from tests.conformance.fakes import ACCOUNT, PHONE, ExampleApi, ForeignSession, raw_reply

CUSTOMER_PATH = "GET /v1/customers/10******21"
HTML = b"<!doctype html><html><body>Welcome to nginx!</body></html>"


def problem(status: int, code: str) -> bytes:
    return json.dumps(
        {"type": f"https://x.test/{code}", "title": code, "status": status, "code": code}
    ).encode()


def settings(**given: str) -> Any:
    values = {"base_url": "http://api.test", "api_key": "k", "account_number": ACCOUNT, **given}
    return build_settings(values, known_checks=CHECK_NAMES, environ={})


@pytest.mark.parametrize(
    ("status", "media_type", "body", "message"),
    [
        (
            200,
            "text/html; charset=utf-8",
            HTML,
            (
                f"{CUSTOMER_PATH} answered 200 text/html (the contract answers application/json): "
                "this does not look like the billing API"
            ),
        ),
        (
            200,
            "application/json",
            b'{"hello": "world"}',
            (
                f"{CUSTOMER_PATH} answered 200 application/json but the body is not the documented "
                'one (at /: "account_number" is a required property): this does not look like'
            ),
        ),
        (200, "application/json", b"<html>", "but the body is not JSON: this does not look"),
        (200, "", b"ok", f"{CUSTOMER_PATH} answered 200 without a Content-Type"),
        (
            500,
            "text/plain",
            b"Internal Server Error",
            (
                f"{CUSTOMER_PATH} answered 500 text/plain (the contract answers "
                "application/problem+json): this does not look like the billing API"
            ),
        ),
        (
            500,
            "application/problem+json",
            problem(500, "internal"),
            (
                f"{CUSTOMER_PATH} answered 500 application/problem+json (internal): the API failed "
                "while the kit read account 10******21"
            ),
        ),
        (
            503,
            "application/problem+json",
            problem(503, "unavailable"),
            "(unavailable): the API failed while the kit read account 10******21",
        ),
        (404, "text/html", HTML, f"{CUSTOMER_PATH} answered 404 text/html (the contract answers"),
        (
            404,
            "application/json",
            b'{"detail": "Not Found"}',
            (
                f"{CUSTOMER_PATH} answered 404 application/json (the contract answers application/"
                "problem+json)"
            ),
        ),
        (
            404,
            "application/problem+json",
            b'{"title": "nope"}',
            "but the body is not the documented one (at /:",
        ),
        (418, "text/plain", b"teapot", "answered 418 text/plain, a status getCustomer never"),
        (302, "text/html", b"", "answered 302 text/html, a status getCustomer never answers"),
        (
            401,
            "application/problem+json",
            problem(401, "unauthorized"),
            "the API refused the API key (401)",
        ),
        (
            404,
            "application/problem+json",
            problem(404, "customer_not_found"),
            f"account 10******21 not found with this API key: {CUSTOMER_PATH} → 404",
        ),
    ],
)
def test_discovery_says_what_it_saw(
    status: int, media_type: str, body: bytes, message: str
) -> None:
    with pytest.raises(KitError) as raised:
        discover(ForeignSession(status, media_type, body), settings(), load_facts())  # type: ignore[arg-type]
    text = str(raised.value)
    assert message in text
    assert ACCOUNT not in text and "\n" not in text


def test_a_foreign_phone_lookup_is_refused_before_its_body_is_used() -> None:
    session = ForeignSession(200, "application/json", b'{"hello": "world"}')
    with pytest.raises(KitError, match="GET /v1/customer-lookup answered 200 application/json"):
        discover(session, settings(customer_phone=PHONE), load_facts())  # type: ignore[arg-type]
    assert len(session.sent) == 1  # no request built from what that answer held


class HtmlInvoices(ExampleApi):
    """A billing API whose invoice listing is served by something else (a web page)."""

    def send(self, call: Any, **kwargs: Any) -> Any:
        if call.path.endswith("/invoices"):
            return raw_reply(call, 200, "text/html", HTML)
        return super().send(call, **kwargs)


def test_a_foreign_invoice_listing_is_named() -> None:
    with pytest.raises(KitError) as raised:
        discover(HtmlInvoices(load_facts()), settings(), load_facts())  # type: ignore[arg-type]
    assert "GET /v1/customers/10******21/invoices answered 200 text/html" in str(raised.value)


def test_the_billing_api_itself_is_recognised() -> None:
    data = discover(ExampleApi(load_facts()), settings(), load_facts())  # type: ignore[arg-type]
    assert data.account_number == ACCOUNT


def test_an_endless_body_is_read_only_up_to_the_bound() -> None:
    sent: list[int] = []

    def endless() -> Iterator[bytes]:
        for _ in range(1_000):  # 64 MiB if it were read whole
            sent.append(1)
            yield b"<p>" + b"x" * (64 * 1024 - 3)

    transport = httpx.MockTransport(
        lambda request: httpx.Response(
            200, headers={"Content-Type": "text/html"}, content=endless()
        )
    )
    with ApiSession(settings(), transport=transport) as session:
        exchange = session.send(Call("/v1/plans"))
    assert len(exchange.response_body) == MAX_RESPONSE_BYTES
    assert len(sent) < 100


class CustomerWithoutCurrency(ExampleApi):
    """The billing API with a bug: the customer record leaves out its required currency."""

    def send(self, call: Any, **kwargs: Any) -> Any:
        reply = super().send(call, **kwargs)
        body = reply.json()
        if call.path == f"/v1/customers/{ACCOUNT}":
            body.pop("currency")
            return raw_reply(call, 200, "application/json", json.dumps(body).encode())
        return reply


def test_a_documented_resource_that_breaks_its_schema_is_the_api_with_a_bug() -> None:
    # The run goes on (schema.response fails it) in the currency the invoices are in.
    data = discover(CustomerWithoutCurrency(load_facts()), settings(), load_facts())  # type: ignore[arg-type]
    assert data.account_number == ACCOUNT and data.currency == "USD"
