"""The webhook's proof of origin: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw
body, keyed with the app secret>`.

The HMAC is computed over the bytes exactly as received (parsing and re-serialising would
change them) and compared in constant time, so the comparison leaks nothing about how much
of a forged signature was right. Bias: reject — a missing, malformed or wrong header is the
same "no", and nothing from an unproven body is parsed or stored.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

SIGNATURE_HEADER = "X-Hub-Signature-256"
_PREFIX = "sha256="


def sign(body: bytes, secret: str) -> str:
    """The header value the platform sends for `body` (tests and local tools sign with it)."""
    return _PREFIX + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def signing_secret(body: bytes, header: str | None, secrets: Iterable[str]) -> str | None:
    """The one of `secrets` that signed `body`, or None when none did (or no header)."""
    if not header or not header.startswith(_PREFIX):
        return None
    matched = None
    for secret in secrets:
        if hmac.compare_digest(sign(body, secret).encode(), header.encode()) and matched is None:
            matched = secret
    return matched
