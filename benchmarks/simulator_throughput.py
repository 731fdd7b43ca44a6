"""Simulator vs bare Starlette: requests/s and p50/p99 at the same concurrency on loopback.

Each server runs in its own uvicorn process (same settings: h11, one worker); a small
asyncio HTTP/1.1 keep-alive load generator (pure Python, much lighter than an HTTP
client library) drives N connections for a bounded time and records every latency.

Compared, in one run:
- bare:        a Starlette route returning a balance-shaped JSON body, nothing else;
- simulator:   `GET /v1/customers/{account}/balance` with auth, request and response
               validation on (compiled engine, the default), request log lines on;
- openapi-core: the same with the reference engine (before/after of the validator choice).

Usage: .venv/bin/python benchmarks/simulator_throughput.py [--seconds 8] [--connections 32]
Target (issue 3): simulator ≥ 50 % of bare throughput, p99 < 25 ms at 32 connections.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BALANCE = {
    "account_number": "1000004821",
    "currency": "USD",
    "amount_due": "32.48",
    "overdue_amount": "0.00",
    "credit_balance": "0.00",
    "net_balance": "32.48",
    "next_due_date": "2026-11-20",
    "as_of": "2026-11-10T13:00:00Z",
}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve_bare(port: int, http: str) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def balance(request: object) -> JSONResponse:
        return JSONResponse(BALANCE)

    app = Starlette(routes=[Route("/v1/customers/{account}/balance", balance)])
    uvicorn.run(
        app, host="127.0.0.1", port=port, log_level="warning", access_log=False, lifespan="off"
    )


def serve_simulator(port: int, engine: str, http: str) -> None:
    import uvicorn

    from simulator import SimulatorConfig, create_app
    from simulator.logs import configure_logging
    from simulator.server import uvicorn_config

    configure_logging("info", open(os.devnull, "w"))  # noqa: SIM115 - lives as long as the server
    app = create_app(SimulatorConfig(customers_per_tenant=50, validation_engine=engine))
    config = uvicorn_config(app, "127.0.0.1", port, "warning")
    config.http = http
    uvicorn.Server(config).run()


@dataclass
class Result:
    name: str
    requests: int
    errors: int
    seconds: float
    latencies_ms: list[float]

    @property
    def rps(self) -> float:
        return self.requests / self.seconds

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else float("nan")


async def _connection(
    port: int,
    request: bytes,
    stop_at: float,
    warm_until: float,
    latencies: list[float],
    counts: list[int],
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        while time.perf_counter() < stop_at:
            started = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            await reader.readexactly(length)
            if started >= warm_until:
                latencies.append((time.perf_counter() - started) * 1000)
                counts[0 if head.startswith(b"HTTP/1.1 200") else 1] += 1
    finally:
        writer.close()


async def _load(
    port: int, request: bytes, connections: int, seconds: float, warmup: float
) -> tuple[int, int, list[float]]:
    start = time.perf_counter()
    latencies: list[float] = []
    counts = [0, 0]
    await asyncio.gather(
        *(
            _connection(port, request, start + warmup + seconds, start + warmup, latencies, counts)
            for _ in range(connections)
        )
    )
    return counts[0], counts[1], latencies


def _wait_ready(port: int, process: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"server on port {port} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"server on port {port} did not start")


def measure(
    name: str, serve_args: list[str], path: str, headers: dict[str, str], args: argparse.Namespace
) -> Result:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, __file__, *serve_args, "--port", str(port), "--http", args.http],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_ready(port, process)
        lines = [
            f"GET {path} HTTP/1.1",
            "Host: 127.0.0.1",
            *(f"{k}: {v}" for k, v in headers.items()),
        ]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode()
        ok, errors, latencies = asyncio.run(
            _load(port, request, args.connections, args.seconds, args.warmup)
        )
        return Result(name, ok, errors, args.seconds, latencies)
    finally:
        process.terminate()
        process.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="measured seconds per server")
    parser.add_argument("--warmup", type=float, default=1.5)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--skip-openapi-core", action="store_true")
    parser.add_argument(
        "--http",
        choices=["h11", "httptools"],
        default="h11",
        help="uvicorn HTTP parser for both servers (h11: the project's declared dependencies)",
    )
    parser.add_argument(
        "--serve", choices=["bare", "compiled", "openapi-core"], help=argparse.SUPPRESS
    )
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve == "bare":
        serve_bare(args.port, args.http)
        return
    if args.serve:
        serve_simulator(args.port, args.serve, args.http)
        return

    sys.path.insert(0, str(ROOT))
    from simulator.state.dataset import generate
    from simulator.state.info import dataset_info

    tenant = dataset_info(generate(42, 50))["tenants"][0]
    account = tenant["samples"]["open_invoice"]["account_number"]
    auth = {"Authorization": f"Bearer {tenant['api_key']}"}
    path = f"/v1/customers/{account}/balance"
    results = [measure("bare starlette", ["--serve", "bare"], path, {}, args)]
    results.append(measure("simulator (compiled)", ["--serve", "compiled"], path, auth, args))
    if not args.skip_openapi_core:
        results.append(
            measure("simulator (openapi-core)", ["--serve", "openapi-core"], path, auth, args)
        )
    base = results[0]
    print(
        f"\n{args.connections} connections, {args.seconds:g} s each, loopback, one uvicorn process"
        f" per server, {args.http}\n"
    )
    print(f"{'server':<26}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'errors':>8}{'vs bare':>10}")
    for result in results:
        print(
            f"{result.name:<26}{result.rps:>10.0f}{result.percentile(0.5):>10.2f}{result.percentile(0.99):>10.2f}"
            f"{result.errors:>8}{result.rps / base.rps:>10.1%}"
        )
    sim = results[1]
    verdict = sim.rps / base.rps >= 0.5 and sim.percentile(0.99) < 25
    print(f"\ntarget (>= 50% of bare, p99 < 25 ms): {'met' if verdict else 'NOT met'}")
    print(
        json.dumps(
            {
                r.name: {
                    "rps": round(r.rps),
                    "p50_ms": round(r.percentile(0.5), 2),
                    "p99_ms": round(r.percentile(0.99), 2),
                }
                for r in results
            }
        )
    )
    print(f"(mean of all latencies: {statistics.fmean(sim.latencies_ms):.2f} ms for the simulator)")


if __name__ == "__main__":
    main()
