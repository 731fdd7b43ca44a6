"""The one masking policy for personal identifiers, wherever they are logged or reported.

Account numbers, phone numbers and national IDs (cédulas, RIFs) keep their first and last
two digits and lose the rest: `1000004821` → `10******21`, `+584121234567` → `+58********67`.
The simulator's request log, the assistant's traces and the conformance report all mask
this way, so the same subscriber can be followed from one to the other without being named.
Bias: mask anything that looks like one of them, even a number that is not (a log line loses
a few digits of context; a leaked cédula cannot be unleaked).
"""

from __future__ import annotations

import functools
import re
from typing import Any, cast
from urllib.parse import unquote

_PATTERNS = (
    re.compile(r"\+\d{8,15}"),  # E.164 phones
    re.compile(r"(?<![\w.])0\d{3}-?\d{7}(?!\d)"),  # local phones 0412-1234567
    re.compile(
        r"(?<![A-Za-z0-9])[VEJGPvejgp]-?\d{1,3}(?:\.?\d{3}){1,2}(?:-\d)?(?!\d)"
    ),  # cédula / RIF
    re.compile(r"(?<!\d)[1-9]\d{9}(?!\d)"),  # account numbers
    re.compile(r"%2B\d{8,15}"),  # URL-encoded E.164
)
_VISIBLE = 2
"""Digits kept at each end."""


def hide(identifier: str) -> str:
    """One identifier masked: its first and last two digits kept, every other digit a `*`,
    everything that is not a digit kept (so `V-12345678` stays recognisable as a cédula).
    An identifier of four digits or fewer is hidden whole: its ends would be all of it."""
    digits = [i for i, ch in enumerate(identifier) if ch.isdigit()]
    if len(digits) <= 2 * _VISIBLE:
        return "".join("*" if ch.isdigit() else ch for ch in identifier)
    keep = set(digits[:_VISIBLE] + digits[-_VISIBLE:])
    return "".join(
        ch if (i in keep or not ch.isdigit()) else "*" for i, ch in enumerate(identifier)
    )


def _hide_match(match: re.Match[str]) -> str:
    text = match.group(0)
    if text.isdigit():  # an account number: the common case in paths
        return text[:_VISIBLE] + "*" * (len(text) - 2 * _VISIBLE) + text[-_VISIBLE:]
    return hide(text)


_ANY = re.compile(
    "(?=[+%0-9VEJGPvejgp])(?:"  # the characters a match can start with: a cheap first test
    + "|".join(f"(?:{pattern.pattern})" for pattern in _PATTERNS)
    + ")"
)
"""All patterns in one pass (a log line is masked on every request); the lookahead rejects
most positions of a path before any pattern's look-behind is tried."""


_DIGIT = re.compile(r"\d")


def mask(text: str) -> str:
    """`text` with every identifier-looking number masked (every pattern needs a digit, so
    text without one — most log messages — is returned after one quick scan)."""
    return _ANY.sub(_hide_match, text) if _DIGIT.search(text) else text


REDACTED = "[redacted]"
_SECRET_SUBSTRINGS = ("token", "secret", "password", "passwd", "signature", "key", "cookie")
"""A name holding any of these (in any case) names a secret: `X-Api-Key`, `client_secret`."""
_SECRET_WORDS = frozenset({"pwd", "sig"})
"""Whole words only: `sig` is a secret, `sigma` (a fault rule's spread) is not."""
_SECRET_PREFIXES = ("auth", "session")
"""Words that start so: `Proxy-Authorization`, `X-Auth-Token`, `sessionId`."""
NOT_SECRET_NAMES = frozenset({"idempotencykey", "keyid", "wwwauthenticate"})
"""Names that match a pattern above but only ever carry an identifier or a scheme (written
lower-case without separators): QA needs `Idempotency-Key` to see a retry."""
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_WORD_BREAK = re.compile(r"[^a-z0-9]+")


@functools.lru_cache(maxsize=4096)
def secret_name(name: str) -> bool:
    """Whether a header, query parameter or JSON field called `name` holds a secret, in any
    capitalisation or spelling (`client_secret`, `clientSecret`, `CLIENT-SECRET`). Bias:
    hide — a redacted harmless field costs a reader a guess, a shown password is a leak."""
    words = [word for word in _WORD_BREAK.split(_CAMEL.sub(r"\1 \2", name).lower()) if word]
    joined = "".join(words)
    if joined in NOT_SECRET_NAMES:
        return False
    return any(part in joined for part in _SECRET_SUBSTRINGS) or any(
        word in _SECRET_WORDS or word.startswith(_SECRET_PREFIXES) for word in words
    )


def redact_named(value: Any) -> Any:
    """A parsed JSON value with the value of every secret-named field, at any depth,
    replaced by `REDACTED` (the whole value: a nested object under `credentials` too)."""
    if isinstance(value, dict):
        fields = cast("dict[Any, Any]", value)
        return {
            key: REDACTED if secret_name(str(key)) else redact_named(item)
            for key, item in fields.items()
        }
    if isinstance(value, list):
        return [redact_named(item) for item in cast("list[Any]", value)]
    return value


def _redact_parameter(match: re.Match[str]) -> str:
    name = match.group(1)
    return name + "=" + REDACTED if secret_name(decoded(name)) else match.group(0)


_PARAMETER = re.compile(r"(?<![^\s&?;,\"'{(])([^\s&?;,=\"'{(]+)=[^&\s;,\"']*")
"""A `name=value` pair of a query string, a form body or a log message: the value of a
secret-named one is never shown (`?client_secret=…`, `refresh_token=…`, `sig=…`)."""
_TOKEN = re.compile(
    r"(?i:\bbearer\s+)[^\s&,;]+"  # a bearer credential, whatever it looks like
    r"|\b(?:sk|pk|rk)_[A-Za-z0-9_]{6,}"  # API keys: the simulator's sk_sim_<tenant>_<hex>, Stripe-style
    r"|\bsim-admin-[A-Za-z0-9_-]+"  # the simulator's admin tokens (its dev default and variants)
    r"|\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*"  # a JWT
)
"""Token-shaped values: the simulator's API-key and admin-token formats, bearer credentials
and JWTs. Bias: hide — a redacted word in a log costs nothing, a logged key is a leak."""
_MAY_HOLD_SECRET = re.compile(r"(?i)sk_|pk_|rk_|bearer|sim-admin|eyJ|=")
"""What every secret pattern needs: text without any of these is returned after one scan."""
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


def mask_secrets(text: str) -> str:
    """`text` with every token-shaped value and secret-named parameter (`secret_name`)
    replaced."""
    if not _MAY_HOLD_SECRET.search(text):
        return text
    text = _PARAMETER.sub(_redact_parameter, text) if "=" in text else text
    return _TOKEN.sub(REDACTED, text)


def decoded(text: str, rounds: int = 3) -> str:
    """`text` percent-decoded (either case of escape, up to `rounds` layers of encoding), so
    `%2b584…` and `V%2D12345678` are seen as the `+584…` and `V-12345678` they are. A
    `+` stays a `+`: read as a space it would split a phone number past recognition."""
    for _ in range(rounds):
        if not _ESCAPE.search(text):
            break
        text = unquote(text, errors="replace")
    return text


def mask_all(text: str) -> str:
    """What a log line may carry of client text: decoded first, then identifiers masked
    (`mask`) and secrets redacted (`mask_secrets`). `mask` alone stays as it is for callers
    that mask text they made themselves."""
    return mask_secrets(mask(decoded(text)))
