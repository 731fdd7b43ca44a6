"""Probes and the scrape: `/healthz` (the process answers), `/readyz` (it can do its work:
the store answers and every worker runs) and `/metrics` (Prometheus text format).

A load balancer sends deliveries only to a ready replica; an orchestrator restarts one that
stays unready. Bias: not ready when in doubt — a replica that cannot store acknowledges
nothing, and WhatsApp redelivers to another.
"""

from __future__ import annotations

import asyncio
import logging

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from billing_toolkit.assistant.channel.metrics import CONTENT_TYPE_LATEST
from billing_toolkit.assistant.channel.problems import problem
from billing_toolkit.assistant.channel.service import ChannelService

logger = logging.getLogger(__name__)


def _service(request: Request) -> ChannelService:
    service: ChannelService = request.app.state.channel
    return service


async def healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> Response:
    service = _service(request)
    alive, expected = service.workers_alive(), service.expected_workers()
    try:
        await asyncio.to_thread(service.store.messages.backlog)
    except Exception as exc:  # noqa: BLE001 — any failure of the store means not ready
        logger.warning("not ready: the store does not answer (%s)", type(exc).__name__)
        return problem(503, "store_unavailable", "The conversation store does not answer.")
    if alive < expected:
        return problem(
            503, "workers_stopped", f"{expected - alive} of {expected} background workers stopped."
        )
    return JSONResponse({"status": "ready", "replica": service.replica, "workers": alive})


async def metrics(request: Request) -> Response:
    service = _service(request)
    try:
        backlog = await asyncio.to_thread(service.store.messages.backlog)
    except Exception as exc:  # noqa: BLE001 — the counters are still worth a scrape
        logger.warning(
            "metrics without the backlog: the store does not answer (%s)", type(exc).__name__
        )
    else:
        service.metrics.observe_backlog(backlog, service.store.now(), service.workers_alive())
    return Response(service.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)


ROUTES = [
    Route("/healthz", healthz, methods=["GET"]),
    Route("/readyz", readyz, methods=["GET"]),
    Route("/metrics", metrics, methods=["GET"]),
]
