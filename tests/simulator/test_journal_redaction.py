"""The journal shows no secret by name: a header, query parameter or JSON field named like
one (any capitalisation, nested at any depth) reads `[redacted]`, and a body filter cannot
confirm a guessed password."""

from __future__ import annotations

import json
from typing import Any

import pytest

from billing_toolkit.simulator.journal import JournalQuery, RequestJournal

VALUE = "hunter2-Plain"
"""Not token-shaped: only its name gives it away."""
HEADERS = [
    "X-Api-Key", "x-api-key", "X-API-KEY", "Api-Key", "Proxy-Authorization", "X-Auth-Token",
    "X-Hub-Signature-256", "X-Session-Id", "Set-Cookie", "X-Client-Secret", "X-Password",
    "x-refresh-token",
]  # fmt: skip
QUERY = [
    "client_secret", "CLIENT_SECRET", "refresh_token", "id_token", "sig", "access_token",
    "API_KEY", "Password", "client%5Fsecret", "pwd", "session", "apiKey",
]  # fmt: skip
FIELDS = [
    "password", "Password", "PASSWORD", "passwd", "pwd", "api_key", "apiKey", "client_secret",
    "clientSecret", "token", "refresh_token", "signature", "sig", "sessionId", "cookie",
    "authCode",
]  # fmt: skip
PLACEMENTS = (
    [("header", name) for name in HEADERS]
    + [("query", name) for name in QUERY]
    + [("body", name) for name in FIELDS]
    + [("nested", name) for name in FIELDS]
)


def _entry(headers: list[tuple[bytes, bytes]], query: bytes, body: Any) -> dict[str, Any]:
    journal = RequestJournal(4)
    raw = json.dumps(body).encode() if body is not None else b""
    journal.record(0.0, 0.0, "r", "POST", "/v1/payments", query, "createPayment", None, 201,
                   (), 0.001, headers, raw)  # fmt: skip
    [entry] = journal.list()
    return entry


@pytest.mark.parametrize(("where", "name"), PLACEMENTS)
def test_a_secret_named_value_never_leaves_the_journal(where: str, name: str) -> None:
    headers = [(name.encode(), VALUE.encode())] if where == "header" else []
    query = f"page=2&{name}={VALUE}".encode() if where == "query" else b""
    body = {"body": {name: VALUE}, "nested": {"payer": {"details": [{name: VALUE}]}}}.get(where)
    entry = _entry(headers, query, body)
    assert VALUE not in json.dumps(entry)
    assert "[redacted]" in json.dumps(entry)


def test_identifiers_stay_visible_beside_redacted_secrets() -> None:
    entry = _entry([(b"Idempotency-Key", b"retry-1")], b"sigma=3", {"reference": "INV-7"})
    assert entry["headers"] == {"Idempotency-Key": "retry-1"}
    assert entry["query"] == "sigma=3" and entry["body"] == {"reference": "INV-7"}


@pytest.mark.parametrize(
    ("path", "redacted"), [("password", 1), ("credentials.api_key", 1), ("auth.password", 0)]
)
def test_a_body_filter_cannot_confirm_a_guessed_secret(path: str, redacted: int) -> None:
    """Filters see what readers see: `auth` is a secret name, so `auth.password` is not
    even there to compare."""
    journal = RequestJournal(2)
    body: dict[str, Any] = {"password": VALUE, "auth": {"password": VALUE},
                            "credentials": {"api_key": VALUE}}  # fmt: skip
    journal.record(0.0, 0.0, "r", "POST", "/x", b"", None, None, 201, (), 0.001, (),
                   json.dumps(body).encode())  # fmt: skip
    assert journal.count(JournalQuery(body={path: VALUE})) == 0
    assert journal.count(JournalQuery(body={path: "[redacted]"})) == redacted
