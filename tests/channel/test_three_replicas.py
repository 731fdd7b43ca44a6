"""Three `serve` processes on one PostgreSQL, 300 signed messages from 30 phones spread over
them, one replica killed with SIGKILL midway: nothing lost, nothing stored twice, each phone
answered in order, no two turns of one conversation at once, duplicates within the bound.

The real programs on loopback: `billing-sim serve` (the billing API), `billing-assistant
fake-graph` (counts every reply it is handed) and three `billing-assistant serve` (template
narrator, shipped knowledge base: the defaults). Every subscriber asks a knowledge-base
question, so every message gets an answer. A delivery that fails (the replica is dead) is
posted to the next replica, as WhatsApp redelivers and a load balancer re-routes.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from billing_toolkit.assistant.channel import sign
from billing_toolkit.assistant.channel.deliveries import text_delivery
from billing_toolkit.assistant.channel.service import RESENT_AFTER_CRASH
from billing_toolkit.assistant.store import open_conversation_store
from tests.channel.replicas import overlapping
from tests.channel.test_serve_cli import EXAMPLE, SECRETS, _free_port

pytestmark = pytest.mark.slow

NUMBER = "100000000000001"
PHONES = [f"+58412{n:07d}" for n in range(1, 31)]
ROUNDS = 10
QUESTION = "¿Cómo pago mi factura?"
WORKERS = 4
LEASE_SECONDS = 2
DEADLINE = 90.0
BIN = Path(sys.executable).parent


def _start(
    argv: list[str], env: dict[str, str], log: Path, **options: Any
) -> subprocess.Popen[str]:
    """A child whose stderr goes to `log`: a pipe nobody reads would fill and stall it."""
    return subprocess.Popen(argv, env=env, text=True, stderr=log.open("w"), **options)


def _wait_until_up(url: str, process: subprocess.Popen[str], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text(encoding="utf-8")[-2000:]
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError(f"{url} did not answer within 60 s")


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate(timeout=10)


@pytest.fixture
def deployment(pg_dsn: str, tmp_path: Path) -> Iterator[dict[str, Any]]:
    processes: list[subprocess.Popen[str]] = []
    try:
        sim_port, graph_port = _free_port(), _free_port()
        sim = _start(
            [
                str(BIN / "billing-sim"),
                "serve",
                "--port",
                str(sim_port),
                "--rate-limit",
                "100000/s",
            ],
            dict(os.environ),
            tmp_path / "sim.log",
            stdout=subprocess.DEVNULL,
        )
        processes.append(sim)
        printed = (tmp_path / "graph.log").open("w")
        graph = _start(
            [str(BIN / "billing-assistant"), "fake-graph", "--port", str(graph_port)],
            {**os.environ, "PYTHONUNBUFFERED": "1"},
            tmp_path / "graph.err",
            stdout=printed,
        )
        processes.append(graph)
        info = json.loads(
            subprocess.run(
                [str(BIN / "billing-sim"), "info"],
                check=True,
                capture_output=True,
                text=True,
                timeout=60,
            ).stdout
        )
        key = next(t["api_key"] for t in info["tenants"] if t["tenant_id"] == "fibranet")
        env = {
            **os.environ,
            **SECRETS,
            "FIBRANET_BILLING_API_KEY": key,
            "BILLING_API_URL": f"http://127.0.0.1:{sim_port}",
        }
        _wait_until_up(f"http://127.0.0.1:{sim_port}/openapi.json", sim, tmp_path / "sim.log")
        replicas = []
        for n in range(3):
            port = _free_port()
            replicas.append(
                (
                    f"http://127.0.0.1:{port}",
                    _start(
                        [
                            str(BIN / "billing-assistant"),
                            "serve",
                            "--config",
                            str(EXAMPLE),
                            "--store",
                            pg_dsn,
                            "--port",
                            str(port),
                            "--workers",
                            str(WORKERS),
                            "--lease-seconds",
                            str(LEASE_SECONDS),
                            "--log-level",
                            "info",
                            "--graph-url",
                            f"http://127.0.0.1:{graph_port}/v21.0",
                        ],
                        env,
                        tmp_path / f"replica-{n}.log",
                        stdout=subprocess.DEVNULL,
                    ),
                )
            )
            processes.append(replicas[-1][1])
        for n, (url, process) in enumerate(replicas):
            _wait_until_up(f"{url}/readyz", process, tmp_path / f"replica-{n}.log")
        yield {
            "replicas": replicas,
            "graph": graph,
            "dsn": pg_dsn,
            "printed": tmp_path / "graph.log",
        }
    finally:
        for process in reversed(processes):
            _stop(process)


class Sender:
    """Posts each phone's messages in order; a delivery a dead replica does not acknowledge
    goes to the next one."""

    def __init__(self, urls: list[str]) -> None:
        self.urls = urls
        self.acked = 0
        self.duplicates = 0
        self._lock = threading.Lock()

    def post(self, body: bytes, first: int) -> None:
        headers = {
            "Content-Type": "application/json",
            "X-Hub-Signature-256": sign(body, SECRETS["FIBRANET_WHATSAPP_APP_SECRET"]),
        }
        for attempt in range(12):
            url = self.urls[(first + attempt) % len(self.urls)]
            try:
                answer = httpx.post(f"{url}/webhook", content=body, headers=headers, timeout=5)
            except httpx.TransportError:
                continue
            if answer.status_code == 200:
                with self._lock:
                    self.acked += 1
                    self.duplicates += answer.json()["duplicates"]
                return
        raise AssertionError("no replica acknowledged a delivery")

    def phones(self, group: list[str], offset: int) -> None:
        for n in range(ROUNDS):
            for k, phone in enumerate(group):
                body = text_delivery(
                    NUMBER,
                    phone,
                    QUESTION,
                    message_id=f"wamid.{phone[1:]}-{n}",
                    timestamp=1795000000 + n,
                )
                self.post(body, offset + n + k)


def test_three_replicas_lose_nothing_when_one_is_killed(deployment: dict[str, Any]) -> None:
    started = time.monotonic()
    replicas = deployment["replicas"]
    sender = Sender([url for url, _ in replicas])
    groups = [PHONES[i::6] for i in range(6)]
    threads = [
        threading.Thread(target=sender.phones, args=(group, i)) for i, group in enumerate(groups)
    ]
    for thread in threads:
        thread.start()
    while sender.acked < 150:
        time.sleep(0.01)
    victim = replicas[1][1]
    victim.send_signal(signal.SIGKILL)
    victim.wait(timeout=10)
    for thread in threads:
        thread.join(timeout=DEADLINE)
    assert sender.acked == 300

    store = open_conversation_store(deployment["dsn"])
    try:
        while store.messages.unfinished() or store.messages.pending() or store.messages.unsettled():
            assert time.monotonic() - started < DEADLINE, (
                "the replicas did not finish",
                len(store.messages.unfinished()),
                len(store.messages.pending()),
                len(store.messages.unsettled()),
                len(store.coordination.turns()),
                sender.duplicates,
            )
            time.sleep(0.2)
        histories = {phone: store.messages.history("fibranet", phone) for phone in PHONES}
        replies = {phone: store.messages.outbound_of("fibranet", phone) for phone in PHONES}
        escalated = {phone for phone in PHONES if store.escalations("fibranet", phone)}
        spans = store.coordination.turns()
    finally:
        store.close()

    inbound = {phone: [e for e in h if e.direction == "in"] for phone, h in histories.items()}
    assert sorted(e.ref for h in inbound.values() for e in h) == sorted(
        f"wamid.{phone[1:]}-{n}" for phone in PHONES for n in range(ROUNDS)
    ), "each stored once"
    assert all(e.status in ("done", "failed") for h in inbound.values() for e in h)
    sent = {phone: [m for m in replies[phone] if m.status.value == "sent"] for phone in PHONES}
    for phone in PHONES:
        answered = {m.reply_to for m in sent[phone]}
        unanswered = [e.ref for e in inbound[phone] if e.ref not in answered]
        assert not unanswered or phone in escalated, f"{phone}: neither answered nor handed over"
    assert out_of_order(inbound, sent) == []
    sent_rows = sum(len(rows) for rows in sent.values())
    resent = sum(m.error == RESENT_AFTER_CRASH for rows in sent.values() for m in rows)

    _stop(deployment["graph"])
    printed = deployment["printed"].read_text(encoding="utf-8")
    received = Counter(line.split(" ")[1] for line in printed.splitlines() if line.startswith("→"))
    duplicates = sum(received.values()) - sent_rows
    assert 0 <= duplicates <= resent <= WORKERS, (duplicates, resent)

    assert any(f"-{victim.pid}-" in span.holder for span in spans), "the victim had work"
    killed = {span.holder for span in spans if span.ended_at is None}
    finished = [span for span in spans if span.ended_at is not None]
    assert len(killed) <= 1 and overlapping(finished) == []
    assert time.monotonic() - started < DEADLINE


def out_of_order(inbound: dict[str, list[Any]], sent: dict[str, list[Any]]) -> list[str]:
    """Phones whose replies the Graph API accepted out of their messages' order (it numbers
    what it accepts: `wamid.FAKE0000000001`, …)."""
    violations = []
    for phone, messages in inbound.items():
        position = {e.ref: n for n, e in enumerate(messages)}
        accepted = sorted(sent[phone], key=lambda m: m.provider_id)
        positions = [position[m.reply_to] for m in accepted if m.reply_to is not None]
        if positions != sorted(positions):
            violations.append(phone)
    return violations
