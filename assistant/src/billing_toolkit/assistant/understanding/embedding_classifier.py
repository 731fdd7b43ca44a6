"""The semantic model: sentence embeddings (all-MiniLM-L6-v2), then a linear model.

MiniLM is an English model; measured on the held-out Spanish templates it is about as good as
the n-gram model, and it fails on *different* messages (it reads meaning across wording the
n-grams never saw, and misses typos and Venezuelan slang they catch), which is why the
ensemble of both is what `models.py` chooses. Figures: `billing-assistant eval` (per language).

The embedder is the retrieval one (`retrieval/embedders`), whose weights load once per
process; the training rows' vectors come from `vector_cache.py`, and the model fitted on them
from `artifacts.py` (keyed by the vectors themselves), so only the first process on a machine
pays for embedding them and fitting. With a costly embedder, the whole shipped utterance set is
read from one cached file first, so measuring on held-out rows or cross-validating (every row
classified once by the fold that lacks it) embeds nothing the machine embedded before.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from billing_toolkit.assistant.retrieval.embedders.base import Embedder
from billing_toolkit.assistant.retrieval.vector_cache import cached_vectors, known_or_embedded
from billing_toolkit.assistant.understanding.artifacts import artifact_key, load_or_fit
from billing_toolkit.assistant.understanding.classifier import (
    RANDOM_STATE,
    IntentPrediction,
    check_rows_have_labels,
    predictions_from,
)
from billing_toolkit.assistant.understanding.estimator_arrays import (
    LogisticPredictor,
    logistic_arrays,
)
from billing_toolkit.assistant.understanding.labels import IntentLabel
from billing_toolkit.assistant.understanding.utterances import Utterance, load_utterances

if TYPE_CHECKING:
    from sklearn.linear_model import LogisticRegression


LOGREG: dict[str, object] = {"C": 20.0, "max_iter": 3000, "random_state": RANDOM_STATE}


class EmbeddingClassifier:
    """Multinomial logistic regression over the message's sentence embedding; fitted once per
    set of training vectors (`artifacts.py`, in `directory`, by default the cache directory)."""

    def __init__(
        self, rows: Sequence[Utterance], embedder: Embedder, directory: Path | None = None
    ) -> None:
        check_rows_have_labels({row.label for row in rows})
        self.name = f"embedding-logreg:{embedder.identity}"
        self._embedder = embedder
        if embedder.costly:
            cached_vectors(embedder, [row.text for row in load_utterances().rows])
        vectors = cached_vectors(embedder, [row.text for row in rows])
        labels = [row.label.value for row in rows]
        settings = {"logreg": LOGREG, "shape": vectors.shape, "dtype": str(vectors.dtype)}
        key = artifact_key(
            "minilm", settings, [vectors.tobytes(), *(label.encode() for label in labels)]
        )
        self._model = load_or_fit(
            "minilm",
            key,
            lambda: LogisticPredictor(logistic_arrays(_logreg().fit(vectors, labels))),
            lambda predictor: predictor.arrays,
            LogisticPredictor,
            directory,
        )
        self._labels = [IntentLabel(value) for value in self._model.classes_]

    def classify(self, message: str) -> IntentPrediction:
        return self.classify_all([message])[0]

    def classify_all(self, messages: Sequence[str]) -> list[IntentPrediction]:
        if not messages:
            return []
        table = self._model.predict_proba(known_or_embedded(self._embedder, messages))
        return predictions_from(self._labels, table)


def _logreg() -> LogisticRegression:
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(**LOGREG)  # pyright: ignore[reportArgumentType] (its keywords)
