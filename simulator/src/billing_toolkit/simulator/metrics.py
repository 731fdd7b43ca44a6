"""`GET /metrics` of the simulator, in the Prometheus text format: requests by operation and
status, faults injected by kind, and a latency histogram — what a load or chaos run is read by.

One outermost ASGI middleware: it times every request, learns the status from the response it
passes on, the operation from the contract's matcher (`unmatched` for anything else: docs,
console, admin), and the faults that fired from the request's state (`fault_injection` puts
the kinds there). Labels are contract operation ids, HTTP statuses and fault kinds: closed
vocabularies, never an account, a key or a path with an id in it. Each app has its own
registry, so two simulators in one process count apart.
"""

from __future__ import annotations

import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from starlette.types import ASGIApp, Message, Receive, Scope, Send

METRICS_PATH = "/metrics"
_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class MetricsMiddleware:
    def __init__(self, app: ASGIApp, runtime: Any) -> None:
        self.app = app
        self.matcher = runtime.matcher
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "billing_sim_requests_total",
            "Requests answered, by contract operation and HTTP status.",
            ["operation", "status"],
            registry=self.registry,
        )
        self.faults = Counter(
            "billing_sim_faults_injected_total",
            "Faults injected into requests, by kind.",
            ["kind"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "billing_sim_request_duration_seconds",
            "Time to answer a request, by contract operation.",
            ["operation"],
            buckets=_BUCKETS,
            registry=self.registry,
        )
        self._children: dict[tuple[str, int], tuple[Any, Any]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["path"] == METRICS_PATH and scope["method"] == "GET":
            await self._expose(send)
            return
        found = self.matcher.match(scope["method"], scope["path"])
        operation = found[0].operation_id if found is not None else "unmatched"
        status = 500  # what the client sees if the app dies before it answers

        async def observed(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        started = time.perf_counter()
        try:
            await self.app(scope, receive, observed)
        finally:
            latency, count = self._children.get((operation, status)) or self._child(
                operation, status
            )
            latency.observe(time.perf_counter() - started)
            count.inc()
            for kind in scope.get("state", {}).get("faults", ()):
                self.faults.labels(kind).inc()

    def _child(self, operation: str, status: int) -> tuple[Any, Any]:
        """The histogram and counter of one (operation, status), looked up once: `labels()`
        takes a lock and builds its key on every call, twice per request."""
        children = (self.latency.labels(operation), self.requests.labels(operation, str(status)))
        self._children[(operation, status)] = children  # closed labels: a bounded cache
        return children

    async def _expose(self, send: Send) -> None:
        body = generate_latest(self.registry)
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", CONTENT_TYPE_LATEST.encode()),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
