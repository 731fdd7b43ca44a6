"""Fixtures for the assistant tests; the fakes themselves live in `assistant_fakes.py`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from billing_toolkit.assistant.store import SqlConversationStore
from billing_toolkit.assistant.turn.pipeline import AssistantPipeline, PipelineSettings
from tests.assistant.assistant_fakes import (
    TENANT,
    FakeCapabilities,
    FakeRetriever,
    PipelineFactory,
)
from tests.assistant.store_backends import STORE_BACKENDS, stepping_store, store_on


@pytest.fixture
def capabilities() -> FakeCapabilities:
    return FakeCapabilities()


@pytest.fixture
def retriever() -> FakeRetriever:
    return FakeRetriever()


@pytest.fixture
def store() -> Iterator[SqlConversationStore]:
    yield from stepping_store()


@pytest.fixture
def make_pipeline(
    capabilities: FakeCapabilities, retriever: FakeRetriever, store: SqlConversationStore
) -> PipelineFactory:
    def make(**overrides: Any) -> AssistantPipeline:
        options: dict[str, Any] = {
            "tenant": TENANT,
            "capabilities": capabilities,
            "store": store,
            "retriever": retriever,
            "settings": PipelineSettings(),
        }
        options.update(overrides)
        return AssistantPipeline(**options)

    return make


@pytest.fixture
def pipeline(make_pipeline: PipelineFactory) -> AssistantPipeline:
    return make_pipeline()


@pytest.fixture(params=STORE_BACKENDS)
def any_store(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SqlConversationStore]:
    """The conversation store on each backend, empty, with a deterministic clock."""
    yield from store_on(request.param, request, tmp_path_factory)
