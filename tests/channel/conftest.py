"""Fixtures of the channel tests: the service on fake pipelines and a fake Graph API.

`harness` runs the real Starlette app (lifespan, workers) through Starlette's TestClient; a
test posts a signed delivery and then `drain()`s the service, so it sees the outcome without
waiting on a timer. The pipelines are the real `AssistantPipeline` over the assistant tests'
fake billing world, one per tenant.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from starlette.testclient import TestClient

from billing_toolkit.assistant.channel import (
    ChannelConfig,
    SendBudget,
    TenantChannel,
    TurnHandler,
    create_channel_app,
    parse_channel_config,
    sign,
)
from billing_toolkit.assistant.store import SqlConversationStore
from billing_toolkit.assistant.turn.pipeline import AssistantPipeline
from tests.assistant.assistant_fakes import FakeCapabilities, FakeRetriever
from tests.assistant.store_backends import STORE_BACKENDS, stepping_store, store_on
from tests.channel.whatsapp import (
    CONFIG_DOCUMENT,
    ENVIRONMENT,
    FIBRA_AGENT,
    FIBRA_SECRET,
    FakeGraph,
    RecordedSleep,
    delivery,
    text_message,
)

BUDGET = SendBudget(attempts=3, base_delay=1.0, max_delay=8.0)


@pytest.fixture
def config() -> ChannelConfig:
    return parse_channel_config(CONFIG_DOCUMENT, ENVIRONMENT)


@pytest.fixture
def store() -> Iterator[SqlConversationStore]:
    yield from stepping_store()


@pytest.fixture
def graph() -> FakeGraph:
    return FakeGraph()


@pytest.fixture
def sleep() -> RecordedSleep:
    return RecordedSleep()


@pytest.fixture
def capabilities() -> dict[str, FakeCapabilities]:
    return {"fibranet": FakeCapabilities("fibranet"), "llanolink": FakeCapabilities("llanolink")}


Factory = Callable[[TenantChannel, SqlConversationStore], TurnHandler]


@pytest.fixture
def factory(capabilities: dict[str, FakeCapabilities]) -> Factory:
    def build(tenant: TenantChannel, store: SqlConversationStore) -> TurnHandler:
        return AssistantPipeline(
            tenant=tenant.tenant,
            capabilities=capabilities[tenant.tenant],
            store=store,
            retriever=FakeRetriever(),
        )

    return build


class Harness:
    """The running service, its fake Graph API and its store."""

    def __init__(self, client: TestClient, graph: FakeGraph, store: SqlConversationStore) -> None:
        self.client = client
        self.graph = graph
        self.store = store

    def post(self, body: bytes, *, secret: str = FIBRA_SECRET, signature: str | None = None) -> Any:
        headers = {
            "Content-Type": "application/json",
            "X-Hub-Signature-256": signature or sign(body, secret),
        }
        return self.client.post("/webhook", content=body, headers=headers)

    def drain(self) -> None:
        self.client.portal.call(self.client.app.state.channel.drain)  # type: ignore[union-attr]

    def say(self, phone: str, text: str, **options: Any) -> Any:
        """The subscriber at `phone` writes `text`; returns the webhook's response after the
        service finished with it."""
        response = self.post(delivery(text_message(phone, text), **options))
        self.drain()
        return response

    def agent(self, method: str, path: str, token: str = FIBRA_AGENT, **options: Any) -> Any:
        return self.client.request(
            method, path, headers={"Authorization": f"Bearer {token}"}, **options
        )


RunService = Callable[..., Any]


@pytest.fixture
def run_service(
    config: ChannelConfig,
    store: SqlConversationStore,
    graph: FakeGraph,
    sleep: RecordedSleep,
    factory: Factory,
) -> RunService:
    """`with run_service() as harness:` — the app started (recovery, workers) and stopped."""

    @contextmanager
    def run(**overrides: Any) -> Iterator[Harness]:
        options: dict[str, Any] = {"config": config, "store": store, "factory": factory}
        options.update(overrides)
        http = graph.client()
        app = create_channel_app(
            options["config"],
            options["store"],
            options["factory"],
            http=http,
            sleep=sleep,
            rng=random.Random(3),
            budget=BUDGET,
            workers=2,
        )
        with TestClient(app, base_url="http://assistant.test") as client:
            yield Harness(client, graph, options["store"])
            assert client.portal is not None  # set while the client is open
            client.portal.call(http.aclose)

    return run


@pytest.fixture
def harness(run_service: RunService) -> Iterator[Harness]:
    with run_service() as running:
        yield running


@pytest.fixture(params=STORE_BACKENDS)
def backend_store(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SqlConversationStore]:
    """An empty conversation store on each backend, with a stepping clock."""
    yield from store_on(request.param, request, tmp_path_factory)
