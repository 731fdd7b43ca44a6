"""The WhatsApp service as a Starlette app: webhook, handoff API, health, background workers.

    app = create_channel_app(config, store, pipeline_factory)

Everything with an outside effect is injected: the conversation store, the pipeline factory,
the HTTP client that talks to the Graph API (tests give one routed to respx or an in-process
fake), the `sleep` between send attempts (tests record instead of sleeping) and the RNG of the
jitter. The workers start with the app's lifespan, after start-up recovery re-queued what a
previous run left unfinished; `app.state.channel` is the `ChannelService` (tests `drain()` it).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from starlette.applications import Starlette

from billing_toolkit.assistant.channel import console, handoff_api, health, webhook
from billing_toolkit.assistant.channel.config import ChannelConfig
from billing_toolkit.assistant.channel.graph_sender import GraphSender, Sleep
from billing_toolkit.assistant.channel.send_retry import SendBudget
from billing_toolkit.assistant.channel.service import (
    DEFAULT_LEASE_SECONDS,
    DEFAULT_POLL_SECONDS,
    DEFAULT_WORKERS,
    ChannelService,
)
from billing_toolkit.assistant.channel.turns import PipelineFactory, TurnRunner
from billing_toolkit.assistant.store import SqlConversationStore


def create_channel_app(
    config: ChannelConfig,
    store: SqlConversationStore,
    pipeline_factory: PipelineFactory,
    *,
    http: httpx.AsyncClient | None = None,
    sleep: Sleep | None = None,
    rng: random.Random | None = None,
    budget: SendBudget | None = None,
    workers: int = DEFAULT_WORKERS,
    lease_seconds: float = DEFAULT_LEASE_SECONDS,
    poll_seconds: float = DEFAULT_POLL_SECONDS,
) -> Starlette:
    """The service for `config`'s tenants. `http` defaults to a client the app opens and
    closes with its lifespan; a given one is the caller's to close."""
    runner = TurnRunner(store, pipeline_factory, {t.tenant: t for t in config.tenants})

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        client = http or httpx.AsyncClient()
        options = {"sleep": sleep} if sleep is not None else {}
        sender = GraphSender(config.graph_api_url, client, budget=budget, rng=rng, **options)
        service = ChannelService(
            config,
            store,
            runner,
            sender,
            workers=workers,
            lease_seconds=lease_seconds,
            poll_seconds=poll_seconds,
        )
        app.state.channel = service
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            if http is None:
                await client.aclose()

    routes = [*health.ROUTES, *webhook.ROUTES, *handoff_api.ROUTES, *console.mount()]
    return Starlette(routes=routes, lifespan=lifespan)
