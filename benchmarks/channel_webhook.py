"""Webhook acknowledgement time and background throughput of `billing-assistant serve`.

The service on uvicorn over loopback, with a stand-in pipeline whose turn takes `--turn-ms`
(a real turn calls the billing API and maybe a model) and an in-process Graph API. Measured in
the same run:

- ack: signed deliveries posted one after another; the time until the 200. Baseline: the same
  server answering only after running the turn inline, which is what the platform would wait
  for without the background queue (it redelivers what is not acknowledged within seconds).
- drain: `--messages` deliveries from distinct subscribers, posted at once; the time until all
  are answered, with `--workers` against a single worker.

    .venv/bin/python benchmarks/channel_webhook.py [--messages 80] [--turn-ms 30] [--workers 4]
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from billing_toolkit.assistant.channel import (
    TenantChannel,
    create_channel_app,
    parse_channel_config,
    sign,
)
from billing_toolkit.assistant.channel.deliveries import text_delivery
from billing_toolkit.assistant.store import SqlConversationStore, open_conversation_store
from billing_toolkit.assistant.turn.result import Action, TurnResult

NUMBER = "100000000000001"
SECRET = "bench-secret"
ENVIRONMENT = {"V": "v", "S": SECRET, "T": "t", "B": "b", "A": "a"}
CONFIG = {
    "verify_token_env": "V",
    "graph_api_url": "http://graph.local/v21.0",
    "tenants": [
        {
            "tenant": "fibranet",
            "phone_number_ids": [NUMBER],
            "app_secret_env": "S",
            "access_token_env": "T",
            "billing_api_key_env": "B",
            "agent_token_env": "A",
        }
    ],
}


class TimedTurn:
    """A pipeline stand-in: blocks for the turn's duration, then replies."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def handle(self, phone: str, message: str, *, message_id: str | None = None) -> TurnResult:
        time.sleep(self.seconds)
        return TurnResult(Action.REPLY, "ok", (), ())


def graph_client() -> httpx.AsyncClient:
    def accept(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"messages": [{"id": "wamid.B"}]})

    return httpx.AsyncClient(transport=httpx.MockTransport(accept))


def build_app(store: SqlConversationStore, turn: TimedTurn, workers: int) -> Starlette:
    config = parse_channel_config(CONFIG, ENVIRONMENT)

    def factory(tenant: TenantChannel, _store: SqlConversationStore) -> TimedTurn:
        return turn

    app = create_channel_app(config, store, factory, http=graph_client(), workers=workers)

    async def inline(request: Request) -> Response:
        """Baseline: verify, run the turn, then answer."""
        body = await request.body()
        if request.headers.get("X-Hub-Signature-256") != sign(body, SECRET):
            return JSONResponse({}, status_code=401)
        await asyncio.to_thread(turn.handle, "+584121234567", "x")
        return JSONResponse({"stored": 1})

    app.router.routes.append(Route("/inline-webhook", inline, methods=["POST"]))
    return app


@contextmanager
def serving(app: Starlette) -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise SystemExit("the server did not start within 20 s")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def post(http: httpx.Client, url: str, phone: str, n: int) -> float:
    body = text_delivery(NUMBER, phone, "¿cuánto debo?", message_id=f"wamid.{phone}.{n}")
    started = time.perf_counter()
    response = http.post(url, content=body, headers={"X-Hub-Signature-256": sign(body, SECRET)})
    elapsed = time.perf_counter() - started
    response.raise_for_status()
    return elapsed


def wait_until_done(store: SqlConversationStore, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while store.messages.unfinished() or store.messages.pending():
        if time.monotonic() > deadline:
            raise SystemExit("the service did not finish within the time limit")
        time.sleep(0.005)


def phones(count: int, offset: int) -> list[str]:
    return [f"+58412{offset + n:07d}" for n in range(count)]


def ack_times(messages: int, turn: TimedTurn, folder: Path) -> tuple[list[float], list[float]]:
    store = open_conversation_store(f"sqlite:///{folder / 'ack.sqlite3'}")
    with serving(build_app(store, turn, workers=4)) as base, httpx.Client() as http:
        acks = [
            post(http, f"{base}/webhook", phone, n) for n, phone in enumerate(phones(messages, 0))
        ]
        inline = [
            post(http, f"{base}/inline-webhook", phone, n)
            for n, phone in enumerate(phones(messages, 10_000))
        ]
        wait_until_done(store)
    store.close()
    return acks, inline


def drain_time(messages: int, turn: TimedTurn, workers: int, folder: Path) -> float:
    store = open_conversation_store(f"sqlite:///{folder / f'drain-{workers}.sqlite3'}")
    with serving(build_app(store, turn, workers=workers)) as base, httpx.Client() as http:
        started = time.perf_counter()
        for n, phone in enumerate(phones(messages, 20_000 * workers)):
            post(http, f"{base}/webhook", phone, n)
        wait_until_done(store)
        elapsed = time.perf_counter() - started
    store.close()
    return elapsed


def milliseconds(values: list[float], quantile: float) -> float:
    return 1000 * statistics.quantiles(values, n=100)[int(quantile * 100) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--messages", type=int, default=80)
    parser.add_argument("--turn-ms", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    turn = TimedTurn(args.turn_ms / 1000)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        acks, inline = ack_times(args.messages, turn, folder)
        single = drain_time(args.messages, turn, 1, folder)
        parallel = drain_time(args.messages, turn, args.workers, folder)
    print(f"{args.messages} deliveries, turn {args.turn_ms:.0f} ms, SQLite file store, loopback")
    print(
        f"ack (stored, queued)    p50 {milliseconds(acks, 0.5):7.2f} ms   "
        f"p95 {milliseconds(acks, 0.95):7.2f} ms"
    )
    print(
        f"baseline: turn inline   p50 {milliseconds(inline, 0.5):7.2f} ms   "
        f"p95 {milliseconds(inline, 0.95):7.2f} ms"
    )
    print(f"  → acknowledged {statistics.median(inline) / statistics.median(acks):.1f}x sooner")
    print(f"drain, 1 worker          {single:6.2f} s  ({args.messages / single:6.1f} msg/s)")
    print(
        f"drain, {args.workers} workers         {parallel:6.2f} s  "
        f"({args.messages / parallel:6.1f} msg/s)  → {single / parallel:.1f}x"
    )


if __name__ == "__main__":
    main()
