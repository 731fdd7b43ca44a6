"""Check requests the client builds with openapi-core (it has no httpx adapter; this is one)."""

from __future__ import annotations

from urllib.parse import parse_qsl

import httpx
from openapi_core.datatypes import RequestParameters
from werkzeug.datastructures import Headers, ImmutableMultiDict


class HttpxOpenAPIRequest:
    """An `httpx.Request` seen through openapi-core's `Request` protocol."""

    def __init__(self, request: httpx.Request) -> None:
        self._request = request
        self.parameters = RequestParameters(
            query=ImmutableMultiDict(parse_qsl(request.url.query.decode("ascii"))),
            header=Headers(list(request.headers.items())),
            cookie=ImmutableMultiDict(),
        )

    @property
    def host_url(self) -> str:
        return f"{self._request.url.scheme}://{self._request.url.netloc.decode('ascii')}"

    @property
    def path(self) -> str:
        return self._request.url.path

    @property
    def method(self) -> str:
        return self._request.method.lower()

    @property
    def body(self) -> bytes | None:
        return self._request.content or None

    @property
    def content_type(self) -> str:
        return self._request.headers.get("content-type", "").lower()
