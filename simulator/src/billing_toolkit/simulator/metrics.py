"""`GET /metrics` of the simulator, in the Prometheus text format: requests by operation and
status, faults injected by kind, and a latency histogram — what a load or chaos run is read by.

Not a layer of its own: the request-context layer, the outermost, already times every
request and learns its status, so it answers `GET /metrics` and hands each finished
request to `observe` (an ASGI layer of its own, with its own `send` wrapper and clock
readings, cost more per request than counting). The operation comes from the request's
one contract match (`routing.operation_match`; `unmatched` for anything else: docs,
console, admin), the faults that fired from the request's state (`fault_injection` puts
the kinds there). Labels are contract operation ids, HTTP statuses and fault kinds: closed
vocabularies, never an account, a key or a path with an id in it. Each app has its own
registry, so two simulators in one process count apart.

The figures are kept as plain tallies and handed to `prometheus_client` as a collector
when `/metrics` is read: its `Histogram.observe` and `Counter.inc` take a lock and walk
the buckets in Python, several microseconds of every request; a tally is one `bisect` and
two additions. Only the event loop's thread records and reads them.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Iterable, Iterator

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.metrics_core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.samples import Sample
from prometheus_client.utils import floatToGoString
from starlette.types import Send

METRICS_PATH = "/metrics"
_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_LE = (*(floatToGoString(bound) for bound in _BUCKETS), "+Inf")
UNMATCHED = "unmatched"
"""The operation label of a request no billing operation serves."""
_REQUESTS = "billing_sim_requests", "Requests answered, by contract operation and HTTP status."
_FAULTS = "billing_sim_faults_injected", "Faults injected into requests, by kind."
_LATENCY = (
    "billing_sim_request_duration_seconds",
    "Time to answer a request, by contract operation.",
)


class _Tally:
    """One (operation, status): requests per latency bucket (the last one past every
    bound), their total seconds, and when the first was counted (Prometheus' `_created`)."""

    __slots__ = ("buckets", "created", "seconds")

    def __init__(self) -> None:
        self.buckets = [0] * (len(_BUCKETS) + 1)
        self.seconds = 0.0
        self.created = time.time()


class RequestMetrics(Collector):
    def __init__(self) -> None:
        self._tallies: dict[tuple[str, int], _Tally] = {}
        self._faults: dict[str, list[float]] = {}  # kind -> [count, created]
        self.registry = CollectorRegistry()
        self.registry.register(self)

    def observe(
        self, operation: str, status: int | None, seconds: float, faults: Iterable[str]
    ) -> None:
        """One finished request; `status` None (the app died before it answered) counts as
        the 500 the client sees. Labels are closed vocabularies: the tallies are bounded."""
        key = (operation, 500 if status is None else status)
        tally = self._tallies.get(key)
        if tally is None:
            tally = self._tallies[key] = _Tally()
        tally.buckets[bisect_left(_BUCKETS, seconds)] += 1  # Prometheus' `le`: seconds <= bound
        tally.seconds += seconds
        for kind in faults:
            counted = self._faults.setdefault(kind, [0, time.time()])
            counted[0] += 1

    def collect(self) -> Iterator[Metric]:
        """The three families as `prometheus_client`'s own metrics would expose them."""
        tallies = list(self._tallies.items())
        requests = CounterMetricFamily(*_REQUESTS, labels=["operation", "status"])
        for (operation, status), tally in tallies:
            requests.add_metric([operation, str(status)], sum(tally.buckets), tally.created)
        yield requests
        faults = CounterMetricFamily(*_FAULTS, labels=["kind"])
        for kind, (count, created) in list(self._faults.items()):
            faults.add_metric([kind], count, created)
        yield faults
        yield _latency(tallies)

    async def expose(self, send: Send) -> None:
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


def _latency(tallies: list[tuple[tuple[str, int], _Tally]]) -> Metric:
    """The latency histogram by operation (every status of it together), cumulative."""
    by_operation: dict[str, tuple[list[int], list[float]]] = {}
    for (operation, _), tally in tallies:
        counts, totals = by_operation.setdefault(operation, ([0] * len(_LE), [0.0, tally.created]))
        for index, count in enumerate(tally.buckets):
            counts[index] += count
        totals[0] += tally.seconds
        totals[1] = min(totals[1], tally.created)
    family = HistogramMetricFamily(*_LATENCY, labels=["operation"])
    for operation, (counts, (seconds, created)) in by_operation.items():
        running, buckets = 0, []
        for le, count in zip(_LE, counts, strict=True):
            running += count
            buckets.append((le, float(running)))
        family.add_metric([operation], buckets, seconds)
        family.samples.append(Sample(f"{_LATENCY[0]}_created", {"operation": operation}, created))
    return family
