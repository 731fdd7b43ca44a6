"""Where a simulator request's time goes, layer by layer, without a socket.

`simulator_throughput.py` says how far the simulator is from bare Starlette over HTTP; this
script says which layer the difference is spent in. The same `GET .../balance` is driven
through raw ASGI calls, in one process, peeling one layer at a time:

- bare starlette      a Starlette route returning a balance-shaped body (the baseline);
- full app            everything: request id, metrics, request log line (queued, written
                      by the background writer as `serve` does; flushed inside each
                      measured round, so its formatting counts), request journal (its
                      default 1000 entries, none read), faults check, dispatch (the
                      contract matched once for all of them), auth, request
                      validation, handler, render, response validation;
- journal off         the same app built with `journal_size=0` (no recorder at all);
- without log line    the same with the request logger disabled;
- endpoint only       auth, validation, handler, render, response check, send;
- handler only        the balance computation and its view.

Figures are CPU microseconds per request (process time, the minimum over rounds: the
least disturbed by whatever else the machine runs), with each layer's share of the full
app. Usage: .venv/bin/python benchmarks/simulator_request_path.py [--requests 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.routing import Route

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.simulator_throughput import bare_app
from billing_toolkit.simulator import SimulatorConfig, create_app
from billing_toolkit.simulator.handlers import BILLING_HANDLERS
from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.logs import REQUEST_QUEUES, configure_logging
from billing_toolkit.simulator.runtime import LOGGER_NAME
from billing_toolkit.simulator.state.info import dataset_info
from billing_toolkit.simulator.validation import ValidatedRequest

Step = Callable[[], Awaitable[None]]


async def _receive() -> dict[str, Any]:
    return {"type": "http.request", "body": b"", "more_body": False}


async def _send(message: Any) -> None:
    return None


def _as_parsed(scope: dict[str, Any]) -> dict[str, Any]:
    """A copy of `scope` with its path and header pairs made anew, as a server's parser makes
    them for every request: the journal keeps them, and the same objects every time would
    hide what keeping the last requests' objects alive (and freeing the oldest) costs."""
    return {
        **scope,
        "path": scope["raw_path"].decode(),
        "headers": [
            (bytes(bytearray(name)), bytes(bytearray(value))) for name, value in scope["headers"]
        ],
    }


def steps() -> dict[str, Step]:
    configure_logging("info", open(os.devnull, "w"), background=True)  # noqa: SIM115 - as serve
    app = create_app(SimulatorConfig(customers_per_tenant=50))
    unjournaled = create_app(SimulatorConfig(customers_per_tenant=50, journal_size=0))
    runtime = app.state.runtime
    tenant = dataset_info(runtime.store.state)["tenants"][0]
    account = tenant["samples"]["open_invoice"]["account_number"]
    path = f"/v1/customers/{account}/balance"
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"authorization", f"Bearer {tenant['api_key']}".encode()),
        ],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    bare = bare_app()
    endpoint = next(
        route.app for route in app.routes if isinstance(route, Route) and route.name == "getBalance"
    )
    context = OperationContext(
        runtime.store.tenant_for_key(tenant["api_key"]),
        ValidatedRequest(path={"accountNumber": account}),
        runtime,
        "req-0000000000000000",
    )
    logger = logging.getLogger(LOGGER_NAME)

    async def full() -> None:
        await app(_as_parsed(scope), _receive, _send)

    async def journal_off() -> None:
        await unjournaled(_as_parsed(scope), _receive, _send)

    async def quiet() -> None:
        # as `--log-level warning` sets it up: no queue for the request lines, nothing logged
        # (`disabled`, not setLevel: that clears every logger's cache)
        logger.disabled, queues = True, dict(REQUEST_QUEUES)
        REQUEST_QUEUES.clear()
        try:
            await app(_as_parsed(scope), _receive, _send)
        finally:
            logger.disabled = False
            REQUEST_QUEUES.update(queues)

    async def endpoint_only() -> None:
        state = {"request_id": "req-0000000000000000"}
        await endpoint(
            {**_as_parsed(scope), "state": state, "path_params": {"accountNumber": account}},
            _receive,
            _send,
        )

    async def handler_only() -> None:
        BILLING_HANDLERS["getBalance"](context)

    async def bare_only() -> None:
        await bare(_as_parsed(scope), _receive, _send)

    return {
        "bare starlette": bare_only,
        "full app": full,
        "journal off": journal_off,
        "without log line": quiet,
        "endpoint only": endpoint_only,
        "handler only": handler_only,
    }


def measure(step: Step, requests: int) -> float:
    async def loop() -> None:
        for _ in range(requests):
            await step()

    started = time.process_time()
    asyncio.run(loop())
    for handler in logging.getLogger(LOGGER_NAME).handlers:
        handler.flush()  # the background writer's lines of this step are this step's cost
    return (time.process_time() - started) / requests * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="requests per round")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    layers = steps()
    for step in layers.values():
        measure(step, 100)  # warm-up
    best = {name: float("inf") for name in layers}
    for _ in range(args.rounds):
        for name, step in layers.items():
            best[name] = min(best[name], measure(step, args.requests))
    full = best["full app"]
    print(f"\nCPU us per request (min of {args.rounds} rounds of {args.requests}), in-process\n")
    print(f"{'layer':<20}{'us/request':>12}{'of full app':>13}")
    for name, micros in best.items():
        print(f"{name:<20}{micros:>12.1f}{micros / full:>13.0%}")
    print(
        "\nby difference: request journal"
        f" {full - best['journal off']:.1f} us, request log line"
        f" {full - best['without log line']:.1f} us, request id + metrics + faults check +"
        " dispatch +"
        f" Starlette wrappers {best['without log line'] - best['endpoint only']:.1f} us,"
        " auth + validation + render + send"
        f" {best['endpoint only'] - best['handler only']:.1f} us,"
        f" handler {best['handler only']:.1f} us"
    )


if __name__ == "__main__":
    main()
