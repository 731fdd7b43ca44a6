"""Several models voting: a weighted mean of their probabilities, label by label.

Two models that fail on different messages are better together than either alone (measured:
`billing-assistant eval`). The mean keeps the output a probability table, so the router's
confidence floors mean the same with one model or several. The weights may differ by the
message's language (`text/language.detect_language`): the English MiniLM model earns more say
on English messages than on Spanish ones (`weighting.py` finds the weights). Ties break on the
label's name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from billing_toolkit.assistant.text.language import Language, detect_language
from billing_toolkit.assistant.understanding.classifier import (
    IntentClassifier,
    IntentPrediction,
    classify_all,
    prediction_from,
)
from billing_toolkit.assistant.understanding.labels import IntentLabel

Weights = Mapping[Language, Sequence[float]]


class EnsembleClassifier:
    def __init__(self, members: Sequence[IntentClassifier], weights: Weights | None = None) -> None:
        if not members:
            raise ValueError("an ensemble needs at least one model")
        self.members = tuple(members)
        self.weights = {
            language: _normalised((weights or {}).get(language), len(members))
            for language in Language
        }
        self.name = "ensemble(" + " + ".join(member.name for member in members) + ")"

    def classify(self, message: str) -> IntentPrediction:
        return self.classify_all([message])[0]

    def classify_all(self, messages: Sequence[str]) -> list[IntentPrediction]:
        ballots = [classify_all(member, messages) for member in self.members]
        return [
            self._mixed(message, [ballot[i] for ballot in ballots])
            for i, message in enumerate(messages)
        ]

    def _mixed(self, message: str, votes: Sequence[IntentPrediction]) -> IntentPrediction:
        weights = self.weights[detect_language(message)]
        return prediction_from(
            {
                label: sum(
                    w * vote.probability(label) for w, vote in zip(weights, votes, strict=True)
                )
                for label in IntentLabel
            }
        )


def _normalised(weights: Sequence[float] | None, members: int) -> tuple[float, ...]:
    """Weights summing to 1 (None: equal); refused when they cannot be a weighting."""
    if weights is None:
        return (1 / members,) * members
    if (
        len(weights) != members
        or any(not 0 <= w < float("inf") for w in weights)
        or sum(weights) <= 0
    ):
        raise ValueError(
            f"ensemble weights must be {members} non-negative numbers, "
            f"not all zero; got {list(weights)}"
        )
    return tuple(w / sum(weights) for w in weights)
