"""Several models voting: the mean of their probabilities, label by label.

Two models that fail on different messages are better together than either alone (measured:
`billing-assistant eval`). The mean keeps the output a probability table, so the router's
confidence floors mean the same with one model or several. Ties break on the label's name.
"""

from __future__ import annotations

from collections.abc import Sequence

from billing_toolkit.assistant.understanding.classifier import (
    IntentClassifier,
    IntentPrediction,
    prediction_from,
)
from billing_toolkit.assistant.understanding.labels import IntentLabel


class EnsembleClassifier:
    def __init__(self, members: Sequence[IntentClassifier]) -> None:
        if not members:
            raise ValueError("an ensemble needs at least one model")
        self.members = tuple(members)
        self.name = "ensemble(" + " + ".join(member.name for member in members) + ")"

    def classify(self, message: str) -> IntentPrediction:
        votes = [member.classify(message) for member in self.members]
        return prediction_from({
            label: sum(vote.probability(label) for vote in votes) / len(votes)
            for label in IntentLabel
        })
