"""The intent classifier interface and the default model: character n-grams + a linear model.

Why character n-grams: subscribers write "kiero", "xq", "cuanto" and "cuánto", "pasame" and
"pásame", and switch language mid-sentence; sub-word features see the shared pieces of all of
them where a word vocabulary sees unrelated tokens. Word n-grams are added so that short
function-word patterns ("no quiero … bot", "call me") count as units too. Logistic
regression gives a probability per label, which the router needs: the person-request stage
hands over on a *low* probability of `person` (when in doubt, hand over), other routes need a
confident prediction or fall back to the knowledge base.

The model is trained from the shipped utterance set at first use, deterministically (fixed
`random_state`, a deterministic solver, rows in file order) and once per process
(`default_classifier`). Held-out figures: `billing-assistant eval` and
`understanding/report.py`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.understanding.labels import IntentLabel
from billing_toolkit.assistant.understanding.utterances import Utterance, load_utterances

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


class NgramClassifier:
    """TF-IDF over character (2–5, word-bounded) and word (1–2) n-grams of the folded text,
    then multinomial logistic regression."""

    name = "char-ngram-logreg"

    def __init__(self, rows: Sequence[Utterance]) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import FeatureUnion, make_pipeline

        if len({row.label for row in rows}) < 2:
            raise ValueError("training needs utterances of at least two labels")
        features = FeatureUnion([
            ("chars", TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True)),
            ("words", TfidfVectorizer(analyzer="word", ngram_range=(1, 2), sublinear_tf=True,
                                      token_pattern=r"(?u)\b\w+\b")),
        ])
        self._model = make_pipeline(features, LogisticRegression(
            C=20.0, max_iter=2000, random_state=RANDOM_STATE))
        self._model.fit([fold(row.text) for row in rows], [row.label.value for row in rows])
        self._labels = [IntentLabel(value) for value in self._model.classes_]

    def classify(self, message: str) -> IntentPrediction:
        probabilities = self._model.predict_proba([fold(message)])[0]
        return prediction_from({label: float(p) for label, p in
                                zip(self._labels, probabilities, strict=True)})


@cache
def default_classifier() -> NgramClassifier:
    """The shipped model, trained on the train split once per process."""
    return NgramClassifier(load_utterances().train)
