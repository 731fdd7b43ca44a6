"""`X-Hub-Signature-256`: HMAC-SHA256 of the raw body with the app secret."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from billing_toolkit.assistant.channel.signature import sign, signing_secret

BODY = b'{"object":"whatsapp_business_account","entry":[]}'


def test_the_signature_is_the_hex_hmac_of_the_raw_body() -> None:
    expected = hmac.new(b"s3cret", BODY, hashlib.sha256).hexdigest()
    assert sign(BODY, "s3cret") == f"sha256={expected}"


def test_the_secret_that_signed_is_found_among_several() -> None:
    assert signing_secret(BODY, sign(BODY, "b"), ["a", "b", "c"]) == "b"


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        sign(BODY, "other"),
        sign(BODY + b" ", "a"),
        sign(BODY, "a").upper(),
        sign(BODY, "a")[7:],
        "sha256=ñ",
        "sha256=",
    ],
)
def test_anything_else_is_no_signature(header: str | None) -> None:
    assert signing_secret(BODY, header, ["a"]) is None
