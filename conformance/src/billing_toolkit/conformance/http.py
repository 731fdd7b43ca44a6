"""The kit's HTTP session: sends requests as a chosen identity and records every exchange.

Identities are named, not passed around as secrets: `PRIMARY` (the tenant under test),
`OTHER` (another tenant, for the isolation check), `NONE` (no Authorization header) and
`INVALID` (a key no implementation should accept). Recording every exchange lets the
response-level rules (problem+json, money, X-Request-Id, ...) judge the kit's own traffic
too, and gives each failure a request to print as curl.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Self

import httpx

from billing_toolkit.conformance.calls import Call
from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.settings import KitSettings

INVALID_API_KEY = "conformance-kit-invalid-key-0000"
MAX_RESPONSE_BYTES = 4 * 1024 * 1024
"""What the kit reads of one response body: the contract's largest page is far smaller, and a
wrong --base-url may stream without end. The rest is not read (the body is then not JSON)."""


class Identity(StrEnum):
    PRIMARY = "primary"
    OTHER = "other"
    NONE = "none"
    INVALID = "invalid"


class ApiSession:
    """A recording client for the implementation under test (one per run)."""

    def __init__(self, settings: KitSettings, transport: httpx.BaseTransport | None = None) -> None:
        self._settings = settings
        self._client = httpx.Client(
            timeout=settings.request_timeout,
            headers={"User-Agent": "billing-contract-conformance", "Accept": "application/json"},
            follow_redirects=False,
            transport=transport,
        )
        self.exchanges: list[Exchange] = []

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _authorization(self, identity: Identity) -> dict[str, str]:
        match identity:
            case Identity.PRIMARY:
                return {"Authorization": f"Bearer {self._settings.api_key}"}
            case Identity.OTHER:
                if not self._settings.other_tenant_key:
                    raise KitError("this check needs --other-tenant-key")
                return {"Authorization": f"Bearer {self._settings.other_tenant_key}"}
            case Identity.INVALID:
                return {"Authorization": f"Bearer {INVALID_API_KEY}"}
            case Identity.NONE:
                return {}

    def send(
        self, call: Call, *, identity: Identity = Identity.PRIMARY, json_body: Any = None
    ) -> Exchange:
        """Send one request built from the operation table (`calls.call`) and record it; a
        transport failure is an exchange with status 0.

        Bias: the kit never retries. A 429 or a dropped connection is evidence about the
        implementation, and retrying would hide it.
        """
        all_headers = {**self._authorization(identity), **call.headers}
        # The whole URL parsed once (the base URL is plain: no query, no trailing slash);
        # httpx's own joining of a relative path and params parses it three times.
        url = httpx.URL(self._settings.base_url + call.path, params=call.params)
        request = self._client.build_request(call.method, url, json=json_body, headers=all_headers)
        try:
            response = self._client.send(request, stream=True)
            try:
                body = _bounded_body(response)
            finally:
                response.close()
            exchange = _exchange(request, response.status_code, response.headers, body)
        except httpx.TransportError as exc:
            exchange = _exchange(request, 0, httpx.Headers(), str(exc).encode())
        self.exchanges.append(exchange)
        return exchange


def _bounded_body(response: httpx.Response) -> bytes:
    """At most `MAX_RESPONSE_BYTES` of the body, read chunk by chunk (never all of it first)."""
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        chunks.append(chunk[: MAX_RESPONSE_BYTES - size])
        size += len(chunks[-1])
        if size >= MAX_RESPONSE_BYTES:
            break
    return b"".join(chunks)


def _exchange(request: httpx.Request, status: int, headers: httpx.Headers, body: bytes) -> Exchange:
    return Exchange(
        method=request.method,
        url=str(request.url),
        request_headers={k.decode(): v.decode() for k, v in request.headers.raw},
        request_body=request.content or None,
        status=status,
        response_headers=dict(headers),
        response_body=body,
    )
