"""The semantic model: sentence embeddings (all-MiniLM-L6-v2), then a linear model.

MiniLM is an English model; measured on the held-out Spanish templates it is about as good as
the n-gram model, and it fails on *different* messages (it reads meaning across wording the
n-grams never saw, and misses typos and Venezuelan slang they catch), which is why the
ensemble of both is what `models.py` chooses. Figures: `billing-assistant eval` (per language).

The embedder is the retrieval one (`retrieval/embedders`), whose weights load once per
process; the training rows' vectors come from `vector_cache.py`, so only the first process on
a machine pays for embedding them.
"""

from __future__ import annotations

from collections.abc import Sequence

from billing_toolkit.assistant.retrieval.embedders.base import Embedder
from billing_toolkit.assistant.understanding.classifier import (
    RANDOM_STATE,
    IntentPrediction,
    check_rows_have_labels,
    prediction_from,
)
from billing_toolkit.assistant.understanding.labels import IntentLabel
from billing_toolkit.assistant.understanding.utterances import Utterance
from billing_toolkit.assistant.understanding.vector_cache import cached_vectors


class EmbeddingClassifier:
    """Multinomial logistic regression over the message's sentence embedding."""

    def __init__(self, rows: Sequence[Utterance], embedder: Embedder) -> None:
        from sklearn.linear_model import LogisticRegression

        check_rows_have_labels({row.label for row in rows})
        self.name = f"embedding-logreg:{embedder.identity}"
        self._embedder = embedder
        self._model = LogisticRegression(C=20.0, max_iter=3000, random_state=RANDOM_STATE)
        self._model.fit(
            cached_vectors(embedder, [row.text for row in rows]), [row.label.value for row in rows]
        )
        self._labels = [IntentLabel(value) for value in self._model.classes_]

    def classify(self, message: str) -> IntentPrediction:
        probabilities = self._model.predict_proba(self._embedder.embed([message]))[0]
        return prediction_from(
            {label: float(p) for label, p in zip(self._labels, probabilities, strict=True)}
        )
