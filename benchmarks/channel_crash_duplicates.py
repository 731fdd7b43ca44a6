"""Duplicate replies after kill -9: how often a crash makes the service answer twice.

The service (`create_channel_app` on uvicorn, a SQLite file store, an echo pipeline whose turn
takes `--turn-ms`) runs in a child process on loopback; a Graph API stand-in in this process
records every reply. Signed deliveries are posted one after another — a delivery the dead
service did not acknowledge is posted again, as WhatsApp redelivers — while the child is
killed with SIGKILL `--kills` times at seeded random moments and restarted on the same store.
At the end every message must have its reply; a reply that arrived more than once is a
duplicate. Each run stops by itself (`--deadline` seconds at most).

    .venv/bin/python benchmarks/channel_crash_duplicates.py [--runs 5] [--messages 100] \
        [--kills 3] [--turn-ms 5] [--seed 7]
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import httpx
import uvicorn
from channel_webhook import CONFIG, ENVIRONMENT, NUMBER, SECRET, phones, serving

from billing_toolkit.assistant.channel import (
    TenantChannel,
    create_channel_app,
    parse_channel_config,
    sign,
)
from billing_toolkit.assistant.channel.deliveries import text_delivery
from billing_toolkit.assistant.channel.fake_graph import create_fake_graph_app
from billing_toolkit.assistant.channel.service import RESENT_AFTER_CRASH
from billing_toolkit.assistant.store import SqlConversationStore, open_conversation_store
from billing_toolkit.assistant.turn.result import Action, TurnResult

REPLY_PREFIX = "re "


class EchoTurn:
    """A pipeline stand-in: one distinct reply per message, after `seconds` of work."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def handle(self, phone: str, message: str, *, message_id: str | None = None) -> TurnResult:
        time.sleep(self.seconds)
        return TurnResult(Action.REPLY, REPLY_PREFIX + message, (), ())


def serve(port: int, graph_url: str, store_dsn: str, turn_ms: float) -> None:
    """The child: the service until it is killed."""
    config = parse_channel_config({**CONFIG, "graph_api_url": graph_url}, ENVIRONMENT)
    store = open_conversation_store(store_dsn)
    turn = EchoTurn(turn_ms / 1000)

    def factory(tenant: TenantChannel, _store: SqlConversationStore) -> EchoTurn:
        return turn

    uvicorn.run(
        create_channel_app(config, store, factory),
        host="127.0.0.1",
        port=port,
        log_level="critical",
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Run:
    messages: int
    replies: Counter[str]
    resent: int
    handed_over: int

    @property
    def answered(self) -> int:
        return len(self.replies)

    @property
    def duplicates(self) -> int:
        return sum(self.replies.values()) - len(self.replies)


def post_all(url: str, count: int, stop: threading.Event) -> None:
    """Post every message until the service acknowledged it (redelivery, as the platform)."""
    with httpx.Client(timeout=2.0) as http:
        for n, phone in enumerate(phones(count, 0)):
            body = text_delivery(NUMBER, phone, f"m{n}", message_id=f"wamid.crash.{n}")
            headers = {"X-Hub-Signature-256": sign(body, SECRET)}
            while not stop.is_set():
                try:
                    if http.post(url, content=body, headers=headers).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                time.sleep(0.01)


def start_child(
    port: int, graph_url: str, store_dsn: str, turn_ms: float, deadline: float
) -> subprocess.Popen[bytes]:
    child = subprocess.Popen(
        [
            sys.executable,
            __file__,
            "serve",
            "--port",
            str(port),
            "--graph-url",
            graph_url,
            "--store",
            store_dsn,
            "--turn-ms",
            str(turn_ms),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=0.5).is_success:
                return child
        except httpx.TransportError:
            time.sleep(0.05)
    child.kill()
    raise SystemExit("the service did not start before the deadline")


def one_run(args: argparse.Namespace, rng: random.Random, folder: Path) -> Run:
    deadline = time.monotonic() + args.deadline
    lines: list[str] = []
    store_path = folder / f"crash-{rng.random():.6f}.sqlite3"
    store_dsn = f"sqlite:///{store_path}"
    port = free_port()
    with serving(create_fake_graph_app(lines.append)) as graph:
        graph_url = f"{graph}/v21.0"
        stop = threading.Event()
        poster = threading.Thread(
            target=post_all,
            args=(f"http://127.0.0.1:{port}/webhook", args.messages, stop),
            daemon=True,
        )
        child = start_child(port, graph_url, store_dsn, args.turn_ms, deadline)
        poster.start()
        try:
            for _ in range(args.kills):
                time.sleep(rng.uniform(args.min_gap, args.max_gap))
                os.kill(child.pid, signal.SIGKILL)
                child.wait()
                child = start_child(port, graph_url, store_dsn, args.turn_ms, deadline)
            poster.join(max(0.0, deadline - time.monotonic()))
            while time.monotonic() < deadline and len(set(lines)) < args.messages:
                time.sleep(0.05)
        finally:
            stop.set()
            child.terminate()
            child.wait(timeout=20)
    replies = Counter(line.rsplit(": ", 1)[1] for line in lines)
    store = open_conversation_store(store_dsn)
    try:
        outbound = [
            entry
            for phone in phones(args.messages, 0)
            for entry in store.messages.history("fibranet", phone)
            if entry.direction == "out"
        ]
    finally:
        store.close()
    return Run(
        args.messages,
        replies,
        resent=sum(entry.note == RESENT_AFTER_CRASH for entry in outbound),
        handed_over=sum(entry.status == "failed" for entry in outbound),
    )


def main() -> None:
    if sys.argv[1:2] == ["serve"]:
        child = argparse.ArgumentParser()
        child.add_argument("serve")
        for option in ("--port", "--graph-url", "--store", "--turn-ms"):
            child.add_argument(option, required=True)
        options = child.parse_args()
        serve(int(options.port), options.graph_url, options.store, float(options.turn_ms))
        return
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--messages", type=int, default=100, help="per run")
    parser.add_argument("--kills", type=int, default=3, help="per run")
    parser.add_argument("--turn-ms", type=float, default=5.0)
    parser.add_argument("--min-gap", type=float, default=0.2, help="seconds between kills")
    parser.add_argument("--max-gap", type=float, default=0.8)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--deadline", type=float, default=120.0, help="seconds per run")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        runs = [one_run(args, rng, Path(tmp)) for _ in range(args.runs)]
    for number, run in enumerate(runs, 1):
        print(
            f"run {number}: {run.answered}/{run.messages} answered, {run.duplicates} "
            f"duplicate(s), {run.resent} resent after a crash, {run.handed_over} handed over"
        )
    total = sum(r.messages for r in runs)
    print(
        f"total: {sum(r.duplicates for r in runs)} duplicate(s) in {total} messages over "
        f"{args.runs} runs of {args.kills} kill -9 each; "
        f"{sum(r.answered for r in runs)}/{total} answered"
    )


if __name__ == "__main__":
    main()
