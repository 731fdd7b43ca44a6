"""The real client and retriever fit the Protocols the pipeline is written against."""

from __future__ import annotations

import inspect

import pytest

from billing_toolkit.assistant.turn.ports import BillingCapabilities, RetrievedChunk, Retriever

CAPABILITIES = [name for name in vars(BillingCapabilities) if not name.startswith("_")]


def _parameters(function: object) -> list[tuple[str, object, object]]:
    signature = inspect.signature(function)  # type: ignore[arg-type]
    return [(p.name, p.kind, p.default) for p in signature.parameters.values() if p.name != "self"]


@pytest.mark.parametrize("name", CAPABILITIES)
def test_the_client_capabilities_have_the_methods_the_pipeline_calls(name: str) -> None:
    from billing_toolkit.client.capabilities import Capabilities

    assert _parameters(getattr(Capabilities, name)) == _parameters(
        getattr(BillingCapabilities, name)
    )


def test_the_hybrid_retriever_returns_what_the_pipeline_reads() -> None:
    from billing_toolkit.assistant.retrieval import HybridRetriever
    from billing_toolkit.assistant.retrieval import RetrievedChunk as RealChunk

    fields = set(RealChunk.__dataclass_fields__) | {
        name for name, value in vars(RealChunk).items() if isinstance(value, property)
    }
    wanted = {name for name in vars(RetrievedChunk) if not name.startswith("_")}
    assert wanted <= fields
    search = inspect.signature(HybridRetriever.search)
    assert [p for p in search.parameters][:3] == [
        p for p in inspect.signature(Retriever.search).parameters
    ]
