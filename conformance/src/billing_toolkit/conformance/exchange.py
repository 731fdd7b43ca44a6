"""One recorded HTTP request and its response, whoever sent it (the kit or schemathesis).

Every check looks at exchanges, never at a transport object, so the same rule judges the
kit's own requests and the ones schemathesis generated. An exchange also knows how to print
itself as a curl command the production team can paste to reproduce a failure.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any
from urllib.parse import unquote, urlsplit

# Placeholders printed instead of the secrets; the README tells the team to export them.
API_KEY_VARIABLE = "BILLING_API_KEY"
OTHER_API_KEY_VARIABLE = "BILLING_OTHER_API_KEY"


@dataclass(frozen=True)
class Exchange:
    """A request the kit observed and the response it got (`status` 0 when none came back)."""

    method: str
    url: str
    request_headers: Mapping[str, str]
    request_body: bytes | None
    status: int
    response_headers: Mapping[str, str]
    response_body: bytes

    @cached_property
    def path(self) -> str:
        """The decoded URL path, which is what the contract's templates describe (parsed once:
        every response rule asks for it)."""
        return unquote(urlsplit(self.url).path)

    def response_header(self, name: str) -> str | None:
        return _header(self.response_headers, name)

    def request_header(self, name: str) -> str | None:
        return _header(self.request_headers, name)

    @property
    def media_type(self) -> str:
        """The response's media type without parameters, lower-cased ('' when absent)."""
        return (self.response_header("content-type") or "").split(";")[0].strip().lower()

    @cached_property
    def _parsed(self) -> tuple[bool, Any]:
        try:
            return True, json.loads(self.response_body)
        except (ValueError, UnicodeDecodeError):
            return False, None

    def json(self) -> Any:
        """The body parsed as JSON (None when it is not JSON); JSON numbers stay numbers, so
        the money check can tell `45.0` from `"45.00"`."""
        return self._parsed[1]

    def is_json(self) -> bool:
        return self._parsed[0]

    def describe(self) -> str:
        """`GET /v1/plans → 200`, for messages."""
        outcome = str(self.status) if self.status else "no response"
        return f"{self.method} {self.path} → {outcome}"

    def answered(self) -> str:
        """`GET /v1/plans answered 200 text/html`: what came back, media type included, for
        messages about an answer that is not the billing API's."""
        if not self.status:
            return f"{self.method} {self.path} got no response"
        return f"{self.method} {self.path} answered {self.status} {self.media_type or 'without a Content-Type'}"


def _header(headers: Mapping[str, str], name: str) -> str | None:
    """Case-insensitive header lookup (HTTP header names are case-insensitive)."""
    wanted = name.lower()
    return next((value for key, value in headers.items() if key.lower() == wanted), None)


def as_curl(exchange: Exchange, secrets: Mapping[str, str]) -> str:
    """A curl command reproducing `exchange`, with each secret replaced by `$VARIABLE`.

    `secrets` maps a secret value (an API key) to the environment variable that holds it, so
    the printed command is safe to paste in a ticket and still works after `export`.
    """
    parts = ["curl", "-sS", "-i", "-X", exchange.method]
    for name, value in exchange.request_headers.items():
        if name.lower() in (
            "content-length",
            "host",
            "accept-encoding",
            "connection",
            "user-agent",
        ):
            continue
        parts.append("-H")
        parts.append(_header_argument(name, value, secrets))
    if exchange.request_body:
        parts.append("--data-raw")
        parts.append(shlex.quote(exchange.request_body.decode("utf-8", errors="replace")))
    parts.append(shlex.quote(exchange.url))
    return " ".join(parts)


def _header_argument(name: str, value: str, secrets: Mapping[str, str]) -> str:
    for secret, variable in secrets.items():
        if secret and secret in value:
            # Double quotes so the shell expands the variable; the rest of the value is ours.
            masked = value.replace(secret, "${" + variable + "}")
            return '"' + f"{name}: {masked}".replace('"', '\\"') + '"'
    return shlex.quote(f"{name}: {value}")
