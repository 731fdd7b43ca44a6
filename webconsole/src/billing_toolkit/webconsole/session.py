"""A console's session cookie and CSRF tokens, for whatever the console keeps in its session.

The cookie is signed with the console's key (itsdangerous, timestamped: it expires after
`max_age`), HttpOnly, SameSite=Strict, Secure over https, scoped to the console's path. It
holds a list of fields the console chooses (its first is a random `sid`). The CSRF token of
every form is an HMAC of the `sid`, checked on each POST — the sign-in form too. Secrets
never go into the cookie: a console stores `mac()` fingerprints of them.

Bias: signed out. A cookie that is unsigned, expired, from another key or salt, or of the
wrong shape is no session at all.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from itsdangerous import BadSignature, URLSafeTimedSerializer
from starlette.requests import Request
from starlette.responses import Response


def new_sid() -> str:
    """A fresh random session id (a new one at sign-in: no fixation)."""
    return secrets.token_urlsafe(18)


class SignedCookie:
    """Signs, reads, sets and clears one console's session cookie; makes its CSRF tokens."""

    def __init__(self, key: bytes, *, salt: str, cookie: str, max_age: int) -> None:
        self._key = key
        self._serializer = URLSafeTimedSerializer(key, salt=salt)
        self.cookie = cookie
        self.max_age = max_age

    def mac(self, data: bytes) -> str:
        """HMAC-SHA256 of `data` under the console's key, as hex."""
        return hmac.new(self._key, data, hashlib.sha256).hexdigest()

    def csrf_token(self, sid: str) -> str:
        return self.mac(b"csrf:" + sid.encode())

    def csrf_ok(self, sid: str, token: str | None) -> bool:
        return token is not None and hmac.compare_digest(
            self.csrf_token(sid).encode(), token.encode()
        )

    def dump(self, fields: list[object]) -> str:
        return str(self._serializer.dumps(fields))

    def load(self, value: str | None, arity: int) -> list[object] | None:
        """The `arity` fields of a valid cookie; None for anything else."""
        if not value:
            return None
        try:
            fields = self._serializer.loads(value, max_age=self.max_age)
        except (BadSignature, ValueError, TypeError):
            return None
        if not isinstance(fields, list) or len(fields) != arity:
            return None
        return fields

    def set(self, response: Response, request: Request, value: str, path: str) -> None:
        """Sets the dumped session `value` for the console mounted at `path`."""
        response.set_cookie(
            self.cookie, value, max_age=self.max_age, path=path,
            httponly=True, samesite="strict", secure=request.url.scheme == "https",
        )  # fmt: skip

    def clear(self, response: Response, path: str) -> None:
        response.delete_cookie(self.cookie, path=path, httponly=True, samesite="strict")
