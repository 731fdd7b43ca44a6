"""A classifier that answers the same message once: one turn asks several times.

The person-request stage, the router and the multi-intent split all classify the message
(and its clauses); with an embedding model each call is a forward pass. The answer depends on
the text alone, so it is remembered, bounded (least recently used goes first).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from billing_toolkit.assistant.understanding.classifier import (
    IntentClassifier,
    IntentPrediction,
    classify_all,
)

REMEMBERED_MESSAGES = 2048


class RememberingClassifier:
    def __init__(self, inner: IntentClassifier, size: int = REMEMBERED_MESSAGES) -> None:
        self.inner = inner
        self.name = inner.name
        self._size = size
        self._known: OrderedDict[str, IntentPrediction] = OrderedDict()
        self._lock = threading.Lock()  # the channel service classifies from several threads

    def classify(self, message: str) -> IntentPrediction:
        return self.classify_all([message])[0]

    def classify_all(self, messages: Sequence[str]) -> list[IntentPrediction]:
        """Remembered answers as they are; the others in one batch of the inner model."""
        with self._lock:
            answers = {m: self._known[m] for m in messages if m in self._known}
            for message in answers:
                self._known.move_to_end(message)
        missing = list(dict.fromkeys(m for m in messages if m not in answers))
        fresh = dict(zip(missing, classify_all(self.inner, missing), strict=True))
        with self._lock:
            for message, prediction in fresh.items():
                self._known[message] = prediction
                while len(self._known) > self._size:
                    self._known.popitem(last=False)
        answers |= fresh
        return [answers[message] for message in messages]

    def forget(self) -> None:
        """Drop every remembered answer (a benchmark measuring the model's cost per turn)."""
        with self._lock:
            self._known.clear()
