"""The shared console session cookie: a cookie that is forged, from another salt or key, or of
another shape is no session; CSRF tokens are bound to the sid."""

from __future__ import annotations

from itsdangerous import URLSafeTimedSerializer

from billing_toolkit.webconsole.session import SignedCookie

KEY = b"k" * 32


def _cookie(salt: str = "inbox", key: bytes = KEY) -> SignedCookie:
    return SignedCookie(key, salt=salt, cookie="c", max_age=3600)


def test_a_cookie_reads_back_only_with_its_own_key_salt_and_shape() -> None:
    value = _cookie().dump(["sid-1", "es", None])
    assert _cookie().load(value, 3) == ["sid-1", "es", None]
    assert _cookie(salt="qa").load(value, 3) is None  # the other console's cookie
    assert _cookie(key=b"x" * 32).load(value, 3) is None  # another process's key
    assert _cookie().load(value, 5) is None  # an older layout of the session
    assert _cookie().load(value[:-2] + "AA", 3) is None  # tampered signature
    not_a_list = URLSafeTimedSerializer(KEY, salt="inbox").dumps(
        {"sid": "s"}
    )  # signed, wrong shape
    assert _cookie().load(not_a_list, 1) is None
    assert _cookie().load("", 3) is None


def test_a_csrf_token_is_good_only_for_its_sid() -> None:
    cookie = _cookie()
    token = cookie.csrf_token("sid-1")
    assert cookie.csrf_ok("sid-1", token)
    assert not cookie.csrf_ok("sid-2", token)
    assert not cookie.csrf_ok("sid-1", None)
    assert not cookie.csrf_ok("sid-1", "0" * len(token))
