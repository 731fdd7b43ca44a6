"""Secrets redacted by name: the kernel's one policy for headers, query parameters and JSON
fields, wherever the toolkit shows or writes traffic (journal, proxy recording, logs)."""

from __future__ import annotations

import pytest

from billing_toolkit.contract.masking import REDACTED, mask_all, redact_named, secret_name

SECRET = [
    "password", "Password", "PASSWORD", "passwd", "pwd", "PWD", "user_pwd", "api_key",
    "apiKey", "API-KEY", "X-Api-Key", "x-api-key", "Api-Key", "client_secret", "clientSecret",
    "CLIENT_SECRET", "token", "access_token", "refresh_token", "id_token", "X-Auth-Token",
    "sig", "Sig", "signature", "X-Hub-Signature-256", "Proxy-Authorization", "Authorization",
    "auth", "authCode", "session", "sessionId", "X-Session-Id", "cookie", "Set-Cookie",
    "private_key", "secretAnswer",
]  # fmt: skip
NOT_SECRET = [
    "Idempotency-Key", "idempotency_key", "WWW-Authenticate", "reference", "amount",
    "sigma", "X-Request-Id", "account_number", "tenant", "Content-Type", "description",
]  # fmt: skip


@pytest.mark.parametrize("name", SECRET)
def test_a_secret_name_is_recognised_in_any_spelling(name: str) -> None:
    assert secret_name(name)


@pytest.mark.parametrize("name", NOT_SECRET)
def test_identifiers_and_ordinary_fields_stay_visible(name: str) -> None:
    assert not secret_name(name)


def test_secret_query_parameters_are_redacted_even_when_escaped() -> None:
    shown = mask_all("/v1/plans?client%5Fsecret=s3&sig=ab&refresh_token=r&id_token=i&page=2")
    assert shown == (
        f"/v1/plans?client_secret={REDACTED}&sig={REDACTED}&refresh_token={REDACTED}"
        f"&id_token={REDACTED}&page=2"
    )


def test_a_secret_field_is_redacted_whole_at_any_depth() -> None:
    body = {"reference": "INV-7", "auth": {"user": "u", "password": "p"}, "items": [{"Token": 1}]}
    assert redact_named(body) == {
        "reference": "INV-7",
        "auth": REDACTED,
        "items": [{"Token": REDACTED}],
    }
