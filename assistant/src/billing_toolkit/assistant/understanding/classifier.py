"""The intent classifier interface: what every model (trained, keyword, LLM) returns.

A prediction carries every label's probability, not only the best one, because the router
needs it: the person-request stage hands over on a *low* probability of `person` (when in
doubt, hand over), other routes need a confident prediction or fall back to the knowledge
base. The models themselves live one per module (`ngram_classifier`, `embedding_classifier`,
`ensemble`, `llm_classifier`); which one runs is chosen in `models.py`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

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


@runtime_checkable
class BatchClassifier(IntentClassifier, Protocol):
    """A model that classifies many messages in one pass (one embedding batch, one
    `predict_proba`): measuring and cross-validating classify thousands of rows, and a
    forward pass per row is what made them slow."""

    def classify_all(self, messages: Sequence[str]) -> list[IntentPrediction]: ...


def classify_all(classifier: IntentClassifier, messages: Sequence[str]) -> list[IntentPrediction]:
    """Every message's prediction, in order: batched when the model can, else one by one
    (keyword and LLM models answer a message at a time)."""
    if isinstance(classifier, BatchClassifier):
        return classifier.classify_all(messages)
    return [classifier.classify(message) for message in messages]


def prediction_from(scores: Mapping[IntentLabel, float]) -> IntentPrediction:
    """The prediction of a score table; ties break on the label's name (deterministic)."""
    label = max(sorted(scores, key=lambda item: item.value), key=lambda item: scores[item])
    return IntentPrediction(label, scores[label], dict(scores))


def predictions_from(
    labels: Sequence[IntentLabel], table: Iterable[Iterable[float]]
) -> list[IntentPrediction]:
    """One prediction per row of a probability table whose columns are `labels`."""
    return [
        prediction_from({label: float(p) for label, p in zip(labels, row, strict=True)})
        for row in table
    ]


def check_rows_have_labels(labels: set[IntentLabel]) -> None:
    """A model trained on one label would name it for everything: refuse to train."""
    if len(labels) < 2:
        raise ValueError("training needs utterances of at least two labels")
