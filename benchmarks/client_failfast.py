"""Fail-fast time with the circuit open, against a naive client doing timeout x retries.

A tiny local server accepts connections and never answers (the "API is down but the port is
open" outage, the costliest one). The naive client is plain httpx with a read timeout and
a fixed number of attempts; ours is `BillingClient` with the same per-attempt timeout, whose
breaker opens after a few consecutive failures and then answers without a network round
trip. Loopback only; bounded to a few seconds.

    .venv/bin/python benchmarks/client_failfast.py [--timeout 0.2] [--attempts 3] [--calls 20]
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import statistics
import threading
import time
from collections.abc import Callable, Iterator

import httpx

from billing_toolkit.client import (
    BillingClient,
    BillingError,
    BreakerConfig,
    CircuitBreaker,
    RetryPolicy,
    Timeouts,
)

ACCOUNT = "1000004821"


@contextlib.contextmanager
def silent_server() -> Iterator[str]:
    """A loopback server that accepts every connection and never sends a byte."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.05)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        listener.close()


def timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    with contextlib.suppress(httpx.HTTPError, BillingError):
        call()
    return time.perf_counter() - start


def naive_call(http: httpx.Client, url: str, attempts: int) -> None:
    """What the seed article warns about: every message burns timeout x attempts."""
    for attempt in range(attempts):
        try:
            http.get(url)
            return
        except httpx.TimeoutException:
            if attempt == attempts - 1:
                raise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--timeout", type=float, default=0.2, help="per-attempt timeout (s)")
    parser.add_argument("--attempts", type=int, default=3, help="naive client's attempts")
    parser.add_argument("--calls", type=int, default=200, help="open-circuit calls measured")
    parser.add_argument("--threshold", type=int, default=3, help="breaker failure threshold")
    args = parser.parse_args(argv)

    with silent_server() as base_url:
        url = f"{base_url}/v1/customers/{ACCOUNT}/balance"
        with httpx.Client(timeout=args.timeout) as http:
            naive = [timed(lambda: naive_call(http, url, args.attempts)) for _ in range(3)]

        breaker = CircuitBreaker(BreakerConfig(failure_threshold=args.threshold, reset_timeout=60))
        budget = Timeouts(
            connect=args.timeout, read=args.timeout, total=args.timeout * args.attempts
        )
        with BillingClient(
            base_url,
            "bench-key",
            timeouts=budget,
            breaker=breaker,
            retry=RetryPolicy(max_attempts=args.attempts),
        ) as client:
            opening = [timed(lambda: client.get_balance(ACCOUNT)) for _ in range(args.threshold)]
            assert breaker.state.value == "open", breaker.state
            open_calls = [timed(lambda: client.get_balance(ACCOUNT)) for _ in range(args.calls)]

    naive_mean = statistics.mean(naive)
    open_mean = statistics.mean(open_calls)
    print(
        f"per-attempt timeout {args.timeout:.3f} s; naive attempts {args.attempts}; "
        f"breaker threshold {args.threshold}"
    )
    print(f"naive client (timeout x retries), per call : {naive_mean * 1e3:10.1f} ms")
    print(
        f"billing client while the circuit closes    : {statistics.mean(opening) * 1e3:10.1f} ms "
        f"per call ({args.threshold} calls, timeouts are not retried)"
    )
    print(
        f"billing client, circuit open, per call     : {open_mean * 1e6:10.1f} us "
        f"(median {statistics.median(open_calls) * 1e6:.1f} us, {args.calls} calls)"
    )
    print(f"ratio naive / open circuit                 : {naive_mean / open_mean:10.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
