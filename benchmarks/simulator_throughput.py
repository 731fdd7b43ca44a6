"""Simulator vs bare Starlette: requests/s and p50/p99 at the same concurrency on loopback.

Each server runs in its own uvicorn process, built by the same `uvicorn_config` (one
worker, the same HTTP parser, no access log, no lifespan) so the only difference is the
app. The load comes from a separate process: `wrk` (C, epoll) when it is on PATH, else a
small asyncio HTTP/1.1 keep-alive generator in this process. Both are reported with the
CPU they used, because on a 2-core machine a load generator that needs a whole core caps
both servers and hides the gap; each server's CPU per request is reported too — it is the
figure that least depends on what else the machine is doing.

Compared, in one run, with the same request bytes (the bare route ignores the
Authorization header, but its server parses it just the same):
- bare:        a Starlette route returning a balance-shaped JSON body, nothing else;
- simulator:   `GET /v1/customers/{account}/balance` with auth, request and response
               validation on (compiled engine, the default), the JSON request log line on
               (written to /dev/null, masked and formatted as in production), the request
               journal on (its default 1000 entries: every request is appended, none read);
- journal off: the same with `--journal-size 0` (no recorder at all) — journal off
               vs on;
- quiet:       `--journal-size 0 --log-level warning`: no journal and no request log line
               — the journal and the log together vs both off (issue 28: at most 10 %);
- limiter:     the simulator with the rate limiter on (`--rate-limit 1000000/s`: every
               request takes a token, none is refused) — limiter off vs on;
- openapi-core: the same with the reference engine (before/after of the validator choice).

Every server is loaded round after round, in turn, so two configurations meet the same
background load, and the order turns by one server each round (the rounds are rounded up to
a multiple of the servers): each server takes every place in the order equally often. On
this 2-core VM a fixed order biased the figures by place alone — the same server measured
first and third differed by 6 % — and always ran the defaults second and the quiet server
last. Each comparison (journal on vs off, limiter on vs off) prints the ratio
of the median round's CPU per request and req/s, with the spread between rounds of each
configuration, and says whether the difference exceeds that spread (the noise of this run).

Each configuration runs in `--processes` uvicorn processes (default 2), each loaded for an
equal slice of every round: two processes of the same server, same code, same seed, differed
by up to 9 % round after round on this VM (where each lands in memory, and so in the caches),
so one process per configuration let that luck decide a comparison of a few percent.

With `--pin`, every server runs on the last core and the load generator on the first, so
a server never shares its core with the load and CPU per request repeats to a few
microseconds between runs (unpinned, the scheduler moves them and the figures drift by 10 %).

Usage: .venv/bin/python benchmarks/simulator_throughput.py [--seconds 10] [--rounds 5]
       [--processes 2] [--connections 32] [--http h11|httptools] [--load wrk|python] [--skip-openapi-core]
       [--pin]
Target (issue 3): simulator >= 50 % of bare throughput, p99 < 25 ms at 32 connections.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

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
TICKS = os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def bare_app() -> Any:
    """The baseline: one Starlette route returning a balance-shaped JSON body."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def balance(request: object) -> JSONResponse:
        return JSONResponse(BALANCE)

    return Starlette(routes=[Route("/v1/customers/{account}/balance", balance)])


LIMITER_ON = ("1000000/s",)
"""The rate limiter on, at a rate the load never reaches: every request takes a token
(the cost measured) and none is refused (a 429 would count as an error)."""


def _simulator_app(
    engine: str,
    rate_limits: tuple[str, ...] = (),
    journal_size: int | None = None,
    log_level: str = "info",
    write_every_s: float | None = None,
) -> Any:
    """`write_every_s`: the request log writer's interval (None: `serve`'s own)."""

    from billing_toolkit.simulator import SimulatorConfig, create_app
    from billing_toolkit.simulator.logs import WRITE_EVERY_S, configure_logging

    every_s = WRITE_EVERY_S if write_every_s is None else write_every_s
    configure_logging(log_level, open(os.devnull, "w"), background=True, every_s=every_s)  # noqa: SIM115
    config = SimulatorConfig(
        customers_per_tenant=50, validation_engine=engine, rate_limits=rate_limits
    )
    if journal_size is not None:
        config = replace(config, journal_size=journal_size)
    return create_app(config)


def serve(kind: str, port: int, http: str, write_every_s: float | None = None) -> None:
    """One server, in this process, with the simulator's own uvicorn settings."""
    import uvicorn

    from billing_toolkit.simulator.server import uvicorn_config

    if kind == "bare":
        app = bare_app()
    elif kind == "limited":
        app = _simulator_app("compiled", LIMITER_ON, write_every_s=write_every_s)
    elif kind == "no-journal":
        app = _simulator_app("compiled", journal_size=0, write_every_s=write_every_s)
    elif kind == "quiet":
        app = _simulator_app(
            "compiled", journal_size=0, log_level="warning", write_every_s=write_every_s
        )
    else:
        app = _simulator_app(kind, write_every_s=write_every_s)
    config = uvicorn_config(app, "127.0.0.1", port, "warning")
    config.http = http
    uvicorn.Server(config).run()


@dataclass
class Load:
    """What one measured window produced."""

    requests: int
    errors: int
    seconds: float
    p50_ms: float
    p99_ms: float
    generator_cpu_s: float
    server_cpu_s: float = 0.0
    """What the server process spent in this window (set by `measure`)."""

    @property
    def rps(self) -> float:
        return self.requests / self.seconds

    @property
    def cpu_us_per_request(self) -> float:
        return self.server_cpu_s / max(1, self.requests) * 1e6


@dataclass
class Result:
    """One server over all rounds: throughput from the totals, percentiles the median of
    the rounds' (a round's percentiles come from the load generator's own histogram)."""

    name: str
    rounds: list[Load] = field(default_factory=list)

    @property
    def server_cpu_s(self) -> float:
        return sum(load.server_cpu_s for load in self.rounds)

    @property
    def requests(self) -> int:
        return sum(load.requests for load in self.rounds)

    @property
    def rps(self) -> float:
        return self.requests / sum(load.seconds for load in self.rounds)

    @property
    def errors(self) -> int:
        return sum(load.errors for load in self.rounds)

    @property
    def p50_ms(self) -> float:
        return statistics.median(load.p50_ms for load in self.rounds)

    @property
    def p99_ms(self) -> float:
        return statistics.median(load.p99_ms for load in self.rounds)

    @property
    def cpu_us_per_request(self) -> float:
        return self.server_cpu_s / max(1, self.requests) * 1e6

    @property
    def generator_cpu_share(self) -> float:
        return sum(load.generator_cpu_s for load in self.rounds) / sum(
            load.seconds for load in self.rounds
        )


# --- load generators -----------------------------------------------------------------


_WRK_PERCENTILE = re.compile(r"^\s*(50|99)(?:\.0+)?%\s+([\d.]+)(us|ms|s)\s*$", re.MULTILINE)
_WRK_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def wrk_load(url: str, headers: dict[str, str], connections: int, seconds: float) -> Load:
    """One `wrk` run (one thread: it drives 32 connections with a fraction of a core).
    wrk takes whole seconds, so `seconds` is rounded (at least 1)."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{max(1, round(seconds))}s", "--latency"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    before = _children_cpu()
    finished = subprocess.run(
        [*command, url], capture_output=True, text=True, check=False, timeout=seconds + 30
    )
    output = finished.stdout
    if finished.returncode != 0:
        raise SystemExit(f"wrk failed ({finished.returncode}): {finished.stderr or output}")
    cpu = _children_cpu() - before
    percentiles = {p: float(v) * _WRK_UNITS[u] for p, v, u in _WRK_PERCENTILE.findall(output)}
    total = re.search(r"(\d+) requests in ([\d.]+)(ms|s)", output)
    if total is None or set(percentiles) != {"50", "99"}:
        raise SystemExit(f"cannot read wrk's output:\n{output}")
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    socket_errors = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output
    )
    errors = (int(bad.group(1)) if bad else 0) + (
        sum(int(n) for n in socket_errors.groups()) if socket_errors else 0
    )
    elapsed = float(total.group(2)) / (1000 if total.group(3) == "ms" else 1)
    return Load(int(total.group(1)), errors, elapsed, percentiles["50"], percentiles["99"], cpu)


async def _connection(
    port: int, request: bytes, stop_at: float, latencies: list[float], counts: list[int]
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
            latencies.append((time.perf_counter() - started) * 1000)
            counts[0 if head.startswith(b"HTTP/1.1 200") else 1] += 1
    finally:
        writer.close()


def python_load(
    port: int, path: str, headers: dict[str, str], connections: int, seconds: float
) -> Load:
    """The fallback: pure-Python keep-alive connections in this process's event loop."""
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in headers.items())]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode()
    latencies: list[float] = []
    counts = [0, 0]

    async def run() -> None:
        stop_at = time.perf_counter() + seconds
        await asyncio.gather(
            *(_connection(port, request, stop_at, latencies, counts) for _ in range(connections))
        )

    cpu, started = time.process_time(), time.perf_counter()
    asyncio.run(run())
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    ordered = sorted(latencies) or [float("nan")]

    def percentile(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(len(ordered) * p))]

    return Load(counts[0], counts[1], elapsed, percentile(0.5), percentile(0.99), cpu)


# --- servers under load --------------------------------------------------------------


def _process_cpu(pid: int) -> float:
    """utime + stime of a process, in seconds (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


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


@dataclass
class Server:
    name: str
    kind: str
    headers: dict[str, str]
    port: int
    process: subprocess.Popen[bytes]


def start_server(
    name: str, kind: str, headers: dict[str, str], http: str, core: int | None
) -> Server:
    """`core`: the one CPU the server may run on (None: wherever the scheduler puts it)."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, __file__, "--serve", kind, "--port", str(port), "--http", http],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if core is not None:
        os.sched_setaffinity(process.pid, {core})
    return Server(name, kind, headers, port, process)


def run_load(server: Server, path: str, seconds: float, args: argparse.Namespace) -> Load:
    if args.load == "wrk":
        url = f"http://127.0.0.1:{server.port}{path}"
        return wrk_load(url, server.headers, args.connections, seconds)
    return python_load(server.port, path, server.headers, args.connections, seconds)


def measure(
    configurations: list[list[Server]], path: str, args: argparse.Namespace
) -> list[Result]:
    """Warm every server, then load the configurations in turn, round after round: on a
    shared machine the background load drifts, and alternating gives every configuration
    the same share of it. Within a round each process of a configuration takes an equal
    slice of its time, and the slices make that configuration's round."""
    results = [Result(servers[0].name) for servers in configurations]
    for server in (server for servers in configurations for server in servers):
        _wait_ready(server.port, server.process)
        warm = run_load(server, path, args.warmup, args)
        if warm.errors or not warm.requests:
            raise SystemExit(f"{server.name}: {warm.errors} errors of {warm.requests} warming up")
    pairs = list(zip(configurations, results, strict=True))
    for round_ in range(args.rounds):
        turn = round_ % len(pairs)  # every configuration in every place of the order alike
        for servers, result in pairs[turn:] + pairs[:turn]:
            slices = []
            for server in servers:
                cpu = _process_cpu(server.process.pid)
                load = run_load(server, path, args.seconds / args.rounds / len(servers), args)
                load.server_cpu_s = _process_cpu(server.process.pid) - cpu
                slices.append(load)
            result.rounds.append(_joined(slices))
    return results


def _joined(slices: list[Load]) -> Load:
    """One round of a configuration from its processes' slices: the totals summed, the
    percentiles weighted by requests."""
    requests = sum(load.requests for load in slices)

    def weighted(of: Any) -> float:
        return sum(of(load) * load.requests for load in slices) / max(1, requests)

    return Load(
        requests=requests,
        errors=sum(load.errors for load in slices),
        seconds=sum(load.seconds for load in slices),
        p50_ms=weighted(lambda load: load.p50_ms),
        p99_ms=weighted(lambda load: load.p99_ms),
        generator_cpu_s=sum(load.generator_cpu_s for load in slices),
        server_cpu_s=sum(load.server_cpu_s for load in slices),
    )


def _spread(values: list[float]) -> tuple[float, float, float]:
    """Median, lowest and highest of one configuration's rounds."""
    return statistics.median(values), min(values), max(values)


def _median_pair(bare: Result, other: Result) -> float:
    """The median over rounds of bare's CPU per request over `other`'s, round by round."""
    return statistics.median(
        a.cpu_us_per_request / b.cpu_us_per_request
        for a, b in zip(bare.rounds, other.rounds, strict=True)
    )


def comparison(label: str, on: Result, off: Result) -> str:
    """`on` against `off`: the ratio of their median rounds, each side's range over its
    rounds (the run's noise), and the ratio within each round (the two measured in the same
    round) with the median of those ratios: the figure least moved by drift between rounds.
    The verdict, biased towards "exceeds": the difference is noise only when the medians
    differ by no more than the wider range AND the round pairs do not all agree on a side
    (with alternating rounds, a real cost shows in every pair even when the load drifts)."""
    lines = [f"{label}:"]
    for what, unit, of in (
        ("server CPU/request", "us", lambda load: load.cpu_us_per_request),
        ("req/s", "", lambda load: load.rps),
    ):
        (on_mid, on_lo, on_hi), (off_mid, off_lo, off_hi) = (
            _spread([of(load) for load in result.rounds]) for result in (on, off)
        )
        pairs = [of(a) / of(b) for a, b in zip(on.rounds, off.rounds, strict=True)]
        paired = statistics.median(pairs)
        noise = max(on_hi - on_lo, off_hi - off_lo)
        one_sided = min(pairs) > 1 or max(pairs) < 1
        verdict = (
            "within the noise"
            if abs(on_mid - off_mid) <= noise and not one_sided
            else "EXCEEDS the noise"
        )
        lines.append(
            f"  {what:<19}{on_mid / off_mid:>6.3f}x  on {on_mid:.1f}{unit} (rounds {on_lo:.1f}–"
            f"{on_hi:.1f}) vs off {off_mid:.1f}{unit} (rounds {off_lo:.1f}–{off_hi:.1f}),"
            f" difference {on_mid - off_mid:+.1f}{unit}, spread between rounds up to"
            f" {noise:.1f}{unit}; round pairs {min(pairs):.3f}x–{max(pairs):.3f}x, median"
            f" pair {paired:.3f}x — {verdict}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per server")
    parser.add_argument(
        "--rounds",
        type=int,
        default=5,
        help="alternating rounds per server (rounded up to a multiple of the servers)",
    )
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument(
        "--processes",
        type=int,
        default=2,
        help="uvicorn processes per server, each loaded for an equal slice of every round"
        " (one process's memory layout alone moved its figures by up to 9 %%)",
    )
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--skip-openapi-core", action="store_true")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="servers on the last core, the load generator on the first (repeatable figures)",
    )
    parser.add_argument(
        "--http",
        choices=["h11", "httptools"],
        default="httptools",
        help="uvicorn HTTP parser for every server (httptools: what `billing-sim serve` runs)",
    )
    parser.add_argument(
        "--load",
        choices=["wrk", "python"],
        default="wrk" if shutil.which("wrk") else "python",
        help="load generator (default: wrk when installed, e.g. `apt-get install wrk`)",
    )
    parser.add_argument(
        "--serve",
        choices=["bare", "compiled", "no-journal", "quiet", "limited", "openapi-core"],
        help=argparse.SUPPRESS,
    )
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--write-every", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.port, args.http, args.write_every)
        return
    if args.rounds < 2:
        parser.error("--rounds: at least 2 (the spread between rounds is the noise reported)")
    if args.processes < 1:
        parser.error("--processes: at least 1")
    if args.load == "wrk" and shutil.which("wrk") is None:
        parser.error("--load wrk: wrk is not on PATH (apt-get install wrk, or use --load python)")

    sys.path.insert(0, str(ROOT))
    from billing_toolkit.simulator.state.dataset import generate
    from billing_toolkit.simulator.state.info import dataset_info

    cores = sorted(os.sched_getaffinity(0))
    server_core: int | None = None
    if args.pin:
        if len(cores) < 2:
            parser.error("--pin: needs two cores (one for the servers, one for the load)")
        server_core = cores[-1]
        os.sched_setaffinity(0, {cores[0]})  # wrk, started from here, inherits it
    tenant = dataset_info(generate(42, 50))["tenants"][0]
    account = tenant["samples"]["open_invoice"]["account_number"]
    auth = {"Authorization": f"Bearer {tenant['api_key']}"}
    path = f"/v1/customers/{account}/balance"
    kinds = [
        ("bare starlette", "bare"),  # the same request bytes
        ("simulator (compiled)", "compiled"),
        ("simulator, journal off", "no-journal"),
        ("simulator + rate limiter", "limited"),
        ("journal off, log warning", "quiet"),
    ]
    if not args.skip_openapi_core:
        kinds.append(("simulator (openapi-core)", "openapi-core"))
    configurations = [
        [start_server(name, kind, auth, args.http, server_core) for _ in range(args.processes)]
        for name, kind in kinds
    ]
    servers = [server for processes in configurations for server in processes]
    args.rounds = -(-args.rounds // len(configurations)) * len(configurations)
    try:
        results = measure(configurations, path, args)
    finally:
        for server in servers:
            server.process.terminate()
        for server in servers:
            server.process.wait(10)
    base, sim, unjournaled, limited, quiet = results[:5]
    print(
        f"\n{args.connections} connections, {args.seconds:g} s per server in {args.rounds} alternating"
        f" rounds after {args.warmup:g} s warm-up, loopback, {args.processes} uvicorn"
        f" process(es) per server ({args.http}), load: {args.load}\n"
    )
    print(
        f"{'server':<26}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}{'vs bare':>9}"
        f"{'server CPU/req':>16}{'load-gen CPU':>14}"
    )
    for r in results:
        print(
            f"{r.name:<26}{r.rps:>9.0f}{r.p50_ms:>9.2f}{r.p99_ms:>9.2f}{r.errors:>8}"
            f"{r.rps / base.rps:>9.1%}{r.cpu_us_per_request:>13.0f} us{r.generator_cpu_share:>13.0%}"
        )
    met = sim.rps / base.rps >= 0.5 and sim.p99_ms < 25
    print(
        f"\ntarget (>= 50% of bare, p99 < 25 ms): {'met' if met else 'NOT met'}"
        f" — {sim.rps / base.rps:.1%} of bare, p99 {sim.p99_ms:.1f} ms;"
        f" CPU per request {sim.cpu_us_per_request / base.cpu_us_per_request:.2f}x bare"
    )
    print()
    print(comparison("journal on (1000 entries, none read) vs off", sim, unjournaled))
    print(comparison("journal and request log on vs both off (issue 28: <= 10 %)", sim, quiet))
    print(
        f"defaults vs bare (issue 28: >= 0.6x): {sim.rps / base.rps:.2f}x req/s,"
        f" {base.cpu_us_per_request / sim.cpu_us_per_request:.2f}x by CPU per request"
        f" (median pair {_median_pair(base, sim):.2f}x)"
    )
    print(comparison("rate limiter on vs off", limited, sim))
    print(
        json.dumps(
            {
                r.name: {
                    "rps": round(r.rps),
                    "p50_ms": round(r.p50_ms, 2),
                    "p99_ms": round(r.p99_ms, 2),
                    "server_cpu_us_per_request": round(r.cpu_us_per_request),
                }
                for r in results
            }
        )
    )


if __name__ == "__main__":
    main()
