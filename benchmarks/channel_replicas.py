"""Turns per second and webhook-ack p99 with 1, 2 and 3 replicas on one PostgreSQL.

Each replica is `create_channel_app` on uvicorn in a child process of its own (as `serve`
runs it), on one PostgreSQL started here from the `pgserver` wheel, with a stand-in pipeline
whose turn takes `--turn-ms` (sleeping, as a turn waits on the billing API or a model) and a
Graph API stand-in that accepts at once. `--messages` signed deliveries from `--phones`
subscribers are posted by `--senders` threads, spread round-robin over the replicas (a load
balancer's job); each phone's messages are posted in order. Measured per replica count, in
the same run, each on a fresh database: the ack latency of every delivery (p50, p99) and the
turns per second from the first post until every message was answered.

    .venv/bin/python benchmarks/channel_replicas.py [--messages 600] [--phones 60] \
        [--turn-ms 30] [--workers 4] [--senders 8]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import uvicorn
from channel_webhook import CONFIG, ENVIRONMENT, NUMBER, SECRET, TimedTurn, graph_client, phones

from billing_toolkit.assistant.channel import (
    TenantChannel,
    create_channel_app,
    parse_channel_config,
    sign,
)
from billing_toolkit.assistant.channel.deliveries import text_delivery
from billing_toolkit.assistant.store import SqlConversationStore, open_conversation_store


def child(dsn: str, port: int, turn_ms: float, workers: int) -> None:
    """One replica, until it is terminated."""
    store = open_conversation_store(dsn)
    turn = TimedTurn(turn_ms / 1000)

    def factory(tenant: TenantChannel, _store: SqlConversationStore) -> TimedTurn:
        return turn

    app = create_channel_app(
        parse_channel_config(CONFIG, ENVIRONMENT),
        store,
        factory,
        http=graph_client(),
        workers=workers,
    )
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="error")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


Replica = tuple[str, "subprocess.Popen[bytes]"]


def start_replicas(count: int, dsn: str, args: argparse.Namespace) -> list[Replica]:
    replicas = []
    for _ in range(count):
        port = free_port()
        process = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "child",
                dsn,
                str(port),
                str(args.turn_ms),
                str(args.workers),
            ],
            env={**os.environ, **ENVIRONMENT},
        )
        replicas.append((f"http://127.0.0.1:{port}", process))
    deadline = time.monotonic() + 60
    for url, process in replicas:
        while True:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("a replica did not start within 60 s")
            try:
                if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
    return replicas


def run(count: int, dsn: str, args: argparse.Namespace) -> tuple[float, float, float]:
    replicas = start_replicas(count, dsn, args)
    urls = [url for url, _ in replicas]
    subscribers = phones(args.phones, 1000 * count)
    acks: list[float] = []
    lock = threading.Lock()

    def send(group: list[str], offset: int) -> None:
        with httpx.Client(timeout=10) as http:
            for n in range(args.messages // args.phones):
                for k, phone in enumerate(group):
                    body = text_delivery(NUMBER, phone, "hola", message_id=f"wamid.{phone}.{n}")
                    url = urls[(offset + n + k) % len(urls)]
                    started = time.perf_counter()
                    http.post(
                        f"{url}/webhook",
                        content=body,
                        headers={"X-Hub-Signature-256": sign(body, SECRET)},
                    ).raise_for_status()
                    with lock:
                        acks.append(time.perf_counter() - started)

    store = open_conversation_store(dsn)
    try:
        started = time.perf_counter()
        with ThreadPoolExecutor(args.senders) as pool:
            list(
                pool.map(
                    send,
                    [subscribers[i :: args.senders] for i in range(args.senders)],
                    range(args.senders),
                )
            )
        deadline = time.monotonic() + 120
        while store.messages.unfinished() or store.messages.pending() or store.messages.unsettled():
            if time.monotonic() > deadline:
                raise SystemExit("the replicas did not finish within 120 s")
            time.sleep(0.01)
        elapsed = time.perf_counter() - started
    finally:
        store.close()
        for _, process in replicas:
            process.terminate()
            process.wait(timeout=20)
    acks.sort()
    return len(acks) / elapsed, 1000 * acks[len(acks) // 2], 1000 * acks[int(len(acks) * 0.99)]


def main() -> None:
    if sys.argv[1:2] == ["child"]:
        dsn, port, turn_ms, workers = sys.argv[2:6]
        child(dsn, int(port), float(turn_ms), int(workers))
        return
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--messages", type=int, default=600)
    parser.add_argument("--phones", type=int, default=60)
    parser.add_argument("--turn-ms", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--senders", type=int, default=8)
    parser.add_argument("--replicas", type=int, nargs="+", default=[1, 2, 3])
    args = parser.parse_args()
    import warnings

    import psycopg
    from psycopg import sql

    with warnings.catch_warnings():  # platformdirs warns that XDG_RUNTIME_DIR is unset
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR")
        from pgserver.postgres_server import get_server

    with tempfile.TemporaryDirectory() as data:
        Path(data).chmod(0o777)
        server = get_server(data, cleanup_mode="delete")
        try:
            print(
                f"{args.messages} deliveries from {args.phones} phones, turn "
                f"{args.turn_ms:.0f} ms, {args.workers} workers per replica, "
                f"{args.senders} senders, PostgreSQL (pgserver), {os.cpu_count()} cores"
            )
            for count in args.replicas:
                with psycopg.connect(server.get_uri(), autocommit=True) as admin:
                    admin.execute(
                        sql.SQL("CREATE DATABASE {}").format(sql.Identifier(f"bench_{count}"))
                    )
                rate, p50, p99 = run(count, server.get_uri(f"bench_{count}"), args)
                print(
                    f"{count} replica(s): {rate:7.1f} turns/s   ack p50 {p50:6.1f} ms   "
                    f"p99 {p99:6.1f} ms"
                )
        finally:
            server.cleanup()


if __name__ == "__main__":
    main()
