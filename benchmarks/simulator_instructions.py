"""Instructions per request of the simulator's configurations and of bare Starlette, counted
by valgrind's callgrind: the same figures on a loaded machine as on an idle one.

`simulator_throughput.py` measures time over HTTP, which on a shared 2-core machine drifts
by tens of percent between rounds (another process on the server's core, the scheduler);
an instruction count repeats to a fraction of a percent whatever else runs, so a change of
a few percent in the request path shows here when it is lost in the noise there. What it
does not see: the kernel's share (system calls, the socket) and the cost of cache misses —
time per request is still `simulator_throughput.py`'s to say.

Each server is `simulator_throughput.py --serve KIND` (the same app and uvicorn settings)
under `valgrind --tool=callgrind --instr-atstart=no --separate-threads=yes`: it warms up
uninstrumented, then `callgrind_control` turns counting on for `--requests` keep-alive
`GET .../balance` requests and dumps. Threads are counted apart: the event loop's (the
request path) and the request log's writer, which under valgrind's slowness would write
tiny batches every 50 ms, so the servers here run it every 2 s (what a batch costs, spread
over hundreds of lines, as at full speed).

Compared (as in `simulator_throughput.py`): bare, the simulator with its defaults, the
journal off, and both the journal and the request log off. Issue 28's bars are on time
(`simulator_throughput.py`); these ratios only say which way a change moved the count.
Python code that stays in the cache runs many more instructions per nanosecond than the
request path as a whole (the log line's rendering: ~20k instructions in ~1.6 us, the whole
request ~400k in ~90 us), so a share of instructions is not a share of time.

Usage: .venv/bin/python benchmarks/simulator_instructions.py [--requests 2000]
Needs valgrind (Debian's `valgrind`, with `callgrind_control`).
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.simulator_throughput import _free_port, _wait_ready

KINDS = (
    ("bare starlette", "bare"),
    ("simulator (defaults)", "compiled"),
    ("journal off", "no-journal"),
    ("journal off, log warning", "quiet"),
)
WRITE_EVERY_S = 2.0
WARMUP = 300
CONNECTIONS = 4
_TOTAL = re.compile(r"^(?:summary|totals): (\d+)", re.MULTILINE)


@dataclass
class Count:
    name: str
    threads: list[int]
    """Instructions per thread over the measured requests, the event loop's first."""
    requests: int

    @property
    def per_request(self) -> float:
        return sum(self.threads) / self.requests

    def thread_per_request(self, index: int) -> float:
        return self.threads[index] / self.requests if index < len(self.threads) else 0.0


def _load(port: int, path: str, headers: dict[str, str], requests: int) -> None:
    connections = [
        http.client.HTTPConnection("127.0.0.1", port, timeout=300) for _ in range(CONNECTIONS)
    ]
    for index in range(requests):
        connection = connections[index % CONNECTIONS]
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise SystemExit(f"{path}: {response.status} under valgrind")
    for connection in connections:
        connection.close()


def count(
    name: str, kind: str, path: str, headers: dict[str, str], requests: int, out: Path
) -> Count:
    """One server under callgrind: instructions per thread over `requests` requests."""
    port = _free_port()
    dump = out / kind
    command = [
        "valgrind", "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes",
        f"--callgrind-out-file={dump}", sys.executable,
        str(ROOT / "benchmarks" / "simulator_throughput.py"), "--serve", kind,
        "--port", str(port), "--http", "httptools", "--write-every", str(WRITE_EVERY_S),
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONHASHSEED": "0"},  # string hashes, and so dict probes, repeat
    )
    try:
        _wait_ready(port, process, timeout=600)
        _load(port, path, headers, WARMUP)
        time.sleep(WRITE_EVERY_S * 1.5)  # the warm-up's lines written before counting
        subprocess.run(["callgrind_control", "-i", "on", str(process.pid)], check=True,
                       capture_output=True)  # fmt: skip
        _load(port, path, headers, requests)
        time.sleep(WRITE_EVERY_S * 1.5)  # the writer's batch of these lines is counted
        subprocess.run(["callgrind_control", "-d", str(process.pid)], check=True,
                       capture_output=True)  # fmt: skip
    finally:
        process.terminate()
        process.wait(120)
    threads = []
    for part in sorted(out.glob(f"{kind}.1-*")):  # the dump callgrind_control asked for
        found = _TOTAL.search(part.read_text(errors="replace"))
        threads.append(int(found.group(1)) if found else 0)
    if not threads:
        raise SystemExit(f"{name}: callgrind wrote no dump")
    return Count(name, threads, requests)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="measured requests per server")
    args = parser.parse_args()
    if args.requests < 100:
        parser.error("--requests: at least 100")
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        parser.error("valgrind is not on PATH (apt-get install valgrind)")

    from billing_toolkit.simulator.state.dataset import generate
    from billing_toolkit.simulator.state.info import dataset_info

    tenant = dataset_info(generate(42, 50))["tenants"][0]
    account = tenant["samples"]["open_invoice"]["account_number"]
    headers = {"Authorization": f"Bearer {tenant['api_key']}"}
    path = f"/v1/customers/{account}/balance"
    with tempfile.TemporaryDirectory() as folder:
        counts = [
            count(name, kind, path, headers, args.requests, Path(folder)) for name, kind in KINDS
        ]
    bare, defaults, unjournaled, quiet = counts
    print(f"\n{args.requests} requests per server, instructions per request (callgrind)\n")
    print(f"{'server':<26}{'total':>10}{'event loop':>12}{'log writer':>12}{'vs bare':>9}")
    for found in counts:
        print(
            f"{found.name:<26}{found.per_request:>10.0f}{found.thread_per_request(0):>12.0f}"
            f"{sum(found.threads[1:]) / found.requests:>12.0f}"
            f"{bare.per_request / found.per_request:>9.2f}x"
        )
    journal = defaults.per_request - unjournaled.per_request
    log = unjournaled.per_request - quiet.per_request
    print(
        f"\njournal {journal:+.0f}, request log {log:+.0f} instructions per request;"
        f" together {defaults.per_request / quiet.per_request:.3f}x both off;"
        f" defaults {bare.per_request / defaults.per_request:.2f}x bare"
    )


if __name__ == "__main__":
    main()
