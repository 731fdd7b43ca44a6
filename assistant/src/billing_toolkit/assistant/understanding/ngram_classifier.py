"""The lexical model: character and word n-grams of the folded text, then a linear model.

Why character n-grams: subscribers write "kiero", "xq", "cuanto" and "cuánto", "pasame" and
"pásame", and switch language mid-sentence; sub-word features see the shared pieces of all of
them where a word vocabulary sees unrelated tokens. Word n-grams are added so that short
function-word patterns ("no quiero … bot", "call me") count as units too. Logistic
regression gives a probability per label (`classifier.IntentPrediction`).

Trained deterministically (fixed `random_state`, a deterministic solver on one thread, rows in
file order), once per training set and library version: the fitted arrays are an artifact in
the cache directory (`artifacts.py`), so a new process loads them instead of fitting. It needs nothing beyond scikit-learn, so it is the model when the `embeddings` extra is not
installed (`models.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.understanding.artifacts import Arrays, artifact_key, load_or_fit
from billing_toolkit.assistant.understanding.classifier import (
    RANDOM_STATE,
    IntentPrediction,
    check_rows_have_labels,
    predictions_from,
)
from billing_toolkit.assistant.understanding.estimator_arrays import logistic_arrays, tfidf_arrays
from billing_toolkit.assistant.understanding.labels import IntentLabel
from billing_toolkit.assistant.understanding.ngram_prediction import NgramPredictor
from billing_toolkit.assistant.understanding.utterances import Utterance

if TYPE_CHECKING:
    from sklearn.pipeline import Pipeline


CHARS: dict[str, object] = {"analyzer": "char_wb", "ngram_range": (2, 5), "sublinear_tf": True}
WORDS: dict[str, object] = {
    "analyzer": "word",
    "ngram_range": (1, 2),
    "sublinear_tf": True,
    "token_pattern": r"(?u)\b\w+\b",
}
LOGREG: dict[str, object] = {"C": 20.0, "max_iter": 2000, "random_state": RANDOM_STATE}
SETTINGS = {"chars": CHARS, "words": WORDS, "logreg": LOGREG}
"""Everything the fit is configured by, in the artifact key (the folding is in it through the
folded training texts)."""


class NgramClassifier:
    """TF-IDF over character (2–5, word-bounded) and word (1–2) n-grams of the folded text,
    then multinomial logistic regression; fitted once per training set (`artifacts.py`, in
    `directory`, by default the cache directory)."""

    name = "char-ngram-logreg"

    def __init__(self, rows: Sequence[Utterance], directory: Path | None = None) -> None:
        check_rows_have_labels({row.label for row in rows})
        texts, labels = [fold(row.text) for row in rows], [row.label.value for row in rows]
        rows_data = (f"{label}\0{text}".encode() for label, text in zip(labels, texts, strict=True))
        key = artifact_key("ngram", SETTINGS, rows_data)
        self._model = load_or_fit(
            "ngram",
            key,
            lambda: _predictor(dump_pipeline(fit_pipeline(texts, labels))),
            lambda predictor: predictor.arrays,
            _predictor,
            directory,
        )
        self._labels = [IntentLabel(value) for value in self._model.classes_]

    def classify(self, message: str) -> IntentPrediction:
        return self.classify_all([message])[0]

    def classify_all(self, messages: Sequence[str]) -> list[IntentPrediction]:
        if not messages:
            return []
        table = self._model.predict_proba([fold(message) for message in messages])
        return predictions_from(self._labels, table)


def fit_pipeline(texts: Sequence[str], labels: Sequence[str]) -> Pipeline:
    """scikit-learn's pipeline fitted on folded texts: what the artifact's arrays come from
    (prediction then runs on the arrays alone, `ngram_prediction.py`)."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import FeatureUnion, make_pipeline

    features = FeatureUnion(
        [
            ("chars", TfidfVectorizer(**CHARS)),  # pyright: ignore[reportArgumentType]
            ("words", TfidfVectorizer(**WORDS)),  # pyright: ignore[reportArgumentType]
        ]
    )
    model = make_pipeline(features, LogisticRegression(**LOGREG))  # pyright: ignore[reportArgumentType]
    return model.fit(list(texts), list(labels))


def dump_pipeline(model: Pipeline) -> Arrays:
    """The arrays prediction reads: each vectorizer's terms and IDF, the regression's
    classes, coefficients and intercepts."""
    features, logreg = model.steps[0][1], model.steps[1][1]
    parts = dict(features.transformer_list)
    return {
        **tfidf_arrays(parts["chars"], "chars_"),
        **tfidf_arrays(parts["words"], "words_"),
        **logistic_arrays(logreg),
    }


def _predictor(arrays: Arrays) -> NgramPredictor:
    return NgramPredictor(arrays, CHARS, WORDS)
