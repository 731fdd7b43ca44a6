"""`BlockingASGITransport`: the blocking client's in-process seam behaves like a socket."""

from __future__ import annotations

import builtins
import gzip
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from anyio.from_thread import start_blocking_portal
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from billing_toolkit.client import BlockingASGITransport


async def echo(request: Request) -> Response:
    body = await request.body()
    return JSONResponse(
        {
            "method": request.method,
            "body": body.decode(),
            "auth": request.headers.get("authorization"),
        }
    )


async def compressed(request: Request) -> Response:
    return Response(
        gzip.compress(b'{"amount_due": "38.28"}'),
        media_type="application/json",
        headers={"Content-Encoding": "gzip"},
    )


async def reset(request: Request) -> Response:
    raise httpx.ReadError("connection reset by peer")


APP = Starlette(
    routes=[
        Route("/echo", echo, methods=["GET", "POST"]),
        Route("/compressed", compressed),
        Route("/reset", reset),
    ]
)


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(
        transport=BlockingASGITransport(APP),
        base_url="http://app.test",
        headers={"Authorization": "Bearer key"},
    ) as client:
        yield client


def test_a_request_and_its_answer_go_through_whole(http: httpx.Client) -> None:
    response = http.post("/echo", json={"amount": "10.00"})
    assert response.status_code == 200
    assert response.json() == {"method": "POST", "body": '{"amount":"10.00"}', "auth": "Bearer key"}
    assert response.request.url == "http://app.test/echo"


def test_a_request_attempts_no_import_that_fails(
    http: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # httpx's ASGITransport imports sniffio on every request (is trio running?): where the
    # package is missing, each request paid a failed import, about a tenth of a millisecond.
    http.get("/compressed")  # whatever the first request imports
    failed: list[str] = []
    real = builtins.__import__

    def watching(name: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return real(name, *args, **kwargs)
        except ImportError:
            failed.append(name)
            raise

    monkeypatch.setattr(builtins, "__import__", watching)
    for _ in range(3):
        assert http.get("/compressed").status_code == 200
    assert failed == []


def test_a_streamed_request_body_arrives(http: httpx.Client) -> None:
    response = http.post("/echo", content=iter([b"pay ", b"38.28"]))
    assert response.json()["body"] == "pay 38.28"


def test_a_compressed_answer_is_decoded_once(http: httpx.Client) -> None:
    response = http.get("/compressed")
    assert response.json() == {"amount_due": "38.28"}


def test_what_the_app_raises_reaches_the_caller_unchanged(http: httpx.Client) -> None:
    with pytest.raises(httpx.ReadError, match="connection reset by peer"):
        http.get("/reset")


def test_clients_on_a_shared_loop_may_close_one_by_one() -> None:
    with start_blocking_portal() as portal:
        transport = BlockingASGITransport(APP, portal)
        with httpx.Client(transport=transport, base_url="http://app.test") as first:
            assert first.get("/echo").status_code == 200
        with httpx.Client(transport=transport, base_url="http://app.test") as second:
            assert second.get("/echo").status_code == 200


def test_a_transport_of_its_own_stops_its_loop_when_closed() -> None:
    transport = BlockingASGITransport(APP)
    with httpx.Client(transport=transport, base_url="http://app.test") as client:
        assert client.get("/echo").status_code == 200
    with pytest.raises(RuntimeError, match="not running"):
        transport.handle_request(httpx.Request("GET", "http://app.test/echo"))
