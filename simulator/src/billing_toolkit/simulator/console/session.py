"""The QA console's session: a signed cookie, and the CSRF token of every form.

Signing in exchanges the admin token for a cookie signed with a key of this process (the
shared `billing_toolkit.webconsole.session` machinery, expiring after `MAX_AGE`). The cookie
never holds the admin token, only an HMAC fingerprint of it: a restart with another token
signs everybody out. Every visitor, signed in or not, has a random `sid`; each form's CSRF
token is an HMAC of it, checked on every POST — the sign-in form too. `sid` is renewed at
sign-in (no fixation).

Bias: signed out. A cookie that is unsigned, expired, from another process or made for
another admin token is no session at all.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass

from billing_toolkit.webconsole.session import SignedCookie, new_sid

COOKIE = "sim_console"
MAX_AGE = 12 * 3600
"""A QA day: after it, sign in again (signing out ends it at once, `live_sessions`)."""
ADMIN_ACCOUNT = "admin"
"""The one account the admin token signs in to: the sign-in throttle's account key."""


@dataclass(frozen=True, slots=True)
class Session:
    sid: str
    language: str
    signed_in: bool = False


class SessionKeys:
    """Signs and reads the cookie and the CSRF tokens; knows the one admin token."""

    def __init__(self, admin_token: str, key: bytes | None = None) -> None:
        self.cookie = SignedCookie(
            key or secrets.token_bytes(32),
            salt="billing-sim-console",
            cookie=COOKIE,
            max_age=MAX_AGE,
        )
        self._admin = admin_token.encode()
        self._fingerprint = self.cookie.mac(b"admin:" + self._admin)

    def token_ok(self, token: str) -> bool:
        return hmac.compare_digest(token.encode(), self._admin)

    def csrf_token(self, session: Session) -> str:
        return self.cookie.csrf_token(session.sid)

    def csrf_ok(self, session: Session, token: str | None) -> bool:
        return self.cookie.csrf_ok(session.sid, token)

    def dump(self, session: Session) -> str:
        fingerprint = self._fingerprint if session.signed_in else ""
        return self.cookie.dump([session.sid, session.language, fingerprint])

    def load(self, cookie: str | None) -> Session | None:
        fields = self.cookie.load(cookie, 3)
        if fields is None:
            return None
        sid, language, fingerprint = fields
        signed_in = bool(fingerprint) and hmac.compare_digest(
            str(fingerprint).encode(), self._fingerprint.encode()
        )
        return Session(str(sid), str(language), signed_in)


def anonymous(language: str) -> Session:
    return Session(sid=new_sid(), language=language)
