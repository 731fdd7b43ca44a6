"""Near-miss identifiers, curl reproduction and the settings' one-line errors."""

from __future__ import annotations

import pytest

from billing_toolkit.conformance.checks.exact_lookup import (
    near_account_numbers,
    near_invoice_numbers,
)
from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.exchange import Exchange, as_curl
from billing_toolkit.conformance.runner import CHECK_NAMES
from billing_toolkit.conformance.settings import build_settings


def test_near_invoice_numbers_include_the_seed_articles_transposition() -> None:
    near = near_invoice_numbers("INV-2026-004281")
    assert "INV-2026-004218" in near
    assert "INV-2026-004282" in near and "INV-2026-004280" in near
    assert "inv-2026-004281" in near
    assert "INV-2026-004281" not in near


def test_near_account_numbers_keep_the_no_leading_zero_rule() -> None:
    near = near_account_numbers("1000004821")
    assert "0100004821" not in near
    assert "1000004812" in near and "1000008421" in near


def test_curl_replaces_api_keys_with_variables() -> None:
    sent = Exchange(
        "POST",
        "http://api.test/v1/customers/1000004821/payments?x=1",
        {"Authorization": "Bearer s3cr3t", "Idempotency-Key": "k-12345678"},
        b'{"amount": "1.00"}',
        201,
        {},
        b"{}",
    )
    curl = as_curl(sent, {"s3cr3t": "BILLING_API_KEY"})
    assert "s3cr3t" not in curl
    assert '-H "Authorization: Bearer ${BILLING_API_KEY}"' in curl
    assert '--data-raw \'{"amount": "1.00"}\'' in curl


BASE = {"base_url": "http://127.0.0.1:8080", "api_key": "k", "account_number": "1000004821"}


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"base_url": "ftp://x"}, "--base-url must be an http(s) URL"),
        ({"api_key": None}, "an API key is required"),
        ({"account_number": "0123456789"}, "does not match the contract's format"),
        ({"account_number": None}, "name the test data"),
        ({"checks": "money,telepathy"}, "unknown check(s) telepathy"),
        ({"payment_amount": "1.5"}, "--payment-amount '1.5' must be a positive amount"),
        ({"max_examples": "0"}, "--max-examples must be at least 1"),
        ({"other_tenant_key": "k"}, "must be another tenant's key"),
    ],
)
def test_bad_settings_are_one_line_errors(override: dict[str, object], message: str) -> None:
    with pytest.raises(KitError, match=message.replace("(", r"\(").replace(")", r"\)")) as raised:
        build_settings({**BASE, **override}, known_checks=CHECK_NAMES, environ={})
    assert "\n" not in str(raised.value)


def test_api_key_falls_back_to_the_environment() -> None:
    values = {**BASE, "api_key": None}
    settings = build_settings(
        values, known_checks=CHECK_NAMES, environ={"BILLING_API_KEY": "from-env"}
    )
    assert settings.api_key == "from-env"
