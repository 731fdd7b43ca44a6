"""The lexical model: character and word n-grams of the folded text, then a linear model.

Why character n-grams: subscribers write "kiero", "xq", "cuanto" and "cuánto", "pasame" and
"pásame", and switch language mid-sentence; sub-word features see the shared pieces of all of
them where a word vocabulary sees unrelated tokens. Word n-grams are added so that short
function-word patterns ("no quiero … bot", "call me") count as units too. Logistic
regression gives a probability per label (`classifier.IntentPrediction`).

Trained deterministically (fixed `random_state`, a deterministic solver, rows in file order);
it needs nothing beyond scikit-learn, so it is the model when the `embeddings` extra is not
installed (`models.py`).
"""

from __future__ import annotations

from collections.abc import Sequence

from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.understanding.classifier import (
    RANDOM_STATE,
    IntentPrediction,
    check_rows_have_labels,
    prediction_from,
)
from billing_toolkit.assistant.understanding.labels import IntentLabel
from billing_toolkit.assistant.understanding.utterances import Utterance


class NgramClassifier:
    """TF-IDF over character (2–5, word-bounded) and word (1–2) n-grams of the folded text,
    then multinomial logistic regression."""

    name = "char-ngram-logreg"

    def __init__(self, rows: Sequence[Utterance]) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import FeatureUnion, make_pipeline

        check_rows_have_labels({row.label for row in rows})
        features = FeatureUnion(
            [
                (
                    "chars",
                    TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True),
                ),
                (
                    "words",
                    TfidfVectorizer(
                        analyzer="word",
                        ngram_range=(1, 2),
                        sublinear_tf=True,
                        token_pattern=r"(?u)\b\w+\b",
                    ),
                ),
            ]
        )
        self._model = make_pipeline(
            features, LogisticRegression(C=20.0, max_iter=2000, random_state=RANDOM_STATE)
        )
        self._model.fit([fold(row.text) for row in rows], [row.label.value for row in rows])
        self._labels = [IntentLabel(value) for value in self._model.classes_]

    def classify(self, message: str) -> IntentPrediction:
        probabilities = self._model.predict_proba([fold(message)])[0]
        return prediction_from(
            {label: float(p) for label, p in zip(self._labels, probabilities, strict=True)}
        )
