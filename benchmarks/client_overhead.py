"""The client's overhead per call against raw httpx, on the same simulator.

Both sides make the same `getBalance` call over loopback to one simulator (`billing-sim
serve` in its own process on 127.0.0.1, so the server does not share this process's GIL):
raw httpx (send, `response.json()`) and `BillingClient.get_balance` (arguments validated,
breaker ticket, streamed body under the budget, strict parse into the generated model
with Decimal money). Rounds alternate between the two so drift in the machine's load hits
both alike. A second measurement serves a canned answer from an `httpx.MockTransport` to
show the client's own cost without any server.

    .venv/bin/python benchmarks/client_overhead.py [--calls 100] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from billing_toolkit.client import BillingClient

ADMIN_TOKEN = "bench-admin-token"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def simulator(customers: int = 20, startup_timeout: float = 60.0) -> Iterator[str]:
    """`billing-sim serve` on a free loopback port, stopped on exit."""
    port = free_port()
    command = [
        str(Path(sys.executable).with_name("billing-sim")),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--customers",
        str(customers),
        "--log-level",
        "warning",
    ]
    env = {**os.environ, "BILLING_SIM_ADMIN_TOKEN": ADMIN_TOKEN}
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + startup_timeout
        while True:
            try:
                if httpx.get(f"{url}/health/ready", timeout=1.0).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or process.poll() is not None:
                raise SystemExit("the simulator did not start")
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def per_call(call: Callable[[], object], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        call()
    return (time.perf_counter() - start) / calls


def compare(
    label: str, raw: Callable[[], object], ours: Callable[[], object], calls: int, rounds: int
) -> None:
    for warm in (raw, ours):
        per_call(warm, 10)
    raw_times, our_times = [], []
    for _ in range(rounds):
        raw_times.append(per_call(raw, calls))
        our_times.append(per_call(ours, calls))
    raw_us, our_us = statistics.median(raw_times) * 1e6, statistics.median(our_times) * 1e6
    print(label)
    print(f"  raw httpx        : {raw_us:9.1f} us per call (median of {rounds} rounds x {calls})")
    print(f"  BillingClient    : {our_us:9.1f} us per call")
    print(f"  client overhead  : {our_us - raw_us:9.1f} us per call; ratio {our_us / raw_us:.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)

    with simulator() as url:
        info = httpx.get(f"{url}/_sim/info", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
        tenant = info.raise_for_status().json()["tenants"][0]
        key, account = tenant["api_key"], tenant["samples"]["individual"]["account_number"]
        path = f"/v1/customers/{account}/balance"
        headers = {"Authorization": f"Bearer {key}", "Accept": "application/json"}
        with httpx.Client(base_url=url) as http, BillingClient(url, key) as client:
            compare(
                "getBalance against the simulator over loopback (billing-sim, 127.0.0.1)",
                lambda: http.get(path, headers=headers).json(),
                lambda: client.get_balance(account),
                args.calls,
                args.rounds,
            )
            canned = http.get(path, headers=headers)

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=canned.content, headers=canned.headers)

    with (
        httpx.Client(base_url=url, transport=httpx.MockTransport(answer)) as http,
        BillingClient(url, key, transport=httpx.MockTransport(answer)) as client,
    ):
        compare(
            "getBalance against a canned answer (httpx.MockTransport, no server)",
            lambda: http.get(path, headers=headers).json(),
            lambda: client.get_balance(account),
            args.calls * 5,
            args.rounds,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
