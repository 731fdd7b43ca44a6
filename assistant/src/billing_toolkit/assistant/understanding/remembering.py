"""A classifier that answers the same message once: one turn asks several times.

The person-request stage, the router and the multi-intent split all classify the message
(and its clauses); with an embedding model each call is a forward pass. The answer depends on
the text alone, so it is remembered, bounded (least recently used goes first).
"""

from __future__ import annotations

from functools import lru_cache

from billing_toolkit.assistant.understanding.classifier import IntentClassifier, IntentPrediction

REMEMBERED_MESSAGES = 2048


class RememberingClassifier:
    def __init__(self, inner: IntentClassifier, size: int = REMEMBERED_MESSAGES) -> None:
        self.inner = inner
        self.name = inner.name
        self._classify = lru_cache(maxsize=size)(inner.classify)

    def classify(self, message: str) -> IntentPrediction:
        return self._classify(message)

    def forget(self) -> None:
        """Drop every remembered answer (a benchmark measuring the model's cost per turn)."""
        self._classify.cache_clear()
