"""The intent classifier interface: what every model (trained, keyword, LLM) returns.

A prediction carries every label's probability, not only the best one, because the router
needs it: the person-request stage hands over on a *low* probability of `person` (when in
doubt, hand over), other routes need a confident prediction or fall back to the knowledge
base. The models themselves live one per module (`ngram_classifier`, `embedding_classifier`,
`ensemble`, `llm_classifier`); which one runs is chosen in `models.py`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from billing_toolkit.assistant.understanding.labels import IntentLabel

RANDOM_STATE = 0
"""Fixed so two trainings on the same rows give the same model (and the same figures)."""


@dataclass(frozen=True, slots=True)
class IntentPrediction:
    """The best label, its probability, and every label's probability (sums to ~1)."""

    label: IntentLabel
    confidence: float
    scores: Mapping[IntentLabel, float]

    def probability(self, label: IntentLabel) -> float:
        return self.scores.get(label, 0.0)


class IntentClassifier(Protocol):
    """Anything that names the intent of one message (trained, keyword or LLM)."""

    name: str

    def classify(self, message: str) -> IntentPrediction: ...


def prediction_from(scores: Mapping[IntentLabel, float]) -> IntentPrediction:
    """The prediction of a score table; ties break on the label's name (deterministic)."""
    label = max(sorted(scores, key=lambda item: item.value), key=lambda item: scores[item])
    return IntentPrediction(label, scores[label], dict(scores))


def check_rows_have_labels(labels: set[IntentLabel]) -> None:
    """A model trained on one label would name it for everything: refuse to train."""
    if len(labels) < 2:
        raise ValueError("training needs utterances of at least two labels")
