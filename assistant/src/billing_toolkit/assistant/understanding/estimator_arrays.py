"""Fitted scikit-learn estimators as plain arrays (and a logistic regression back), for the
artifact files.

Only what prediction reads is kept: a logistic regression's classes, coefficients and
intercepts; a TF-IDF vectorizer's terms (in column order) and inverse document frequencies.
Both models predict from their arrays in numpy alone, restating scikit-learn's arithmetic
(`LogisticPredictor` here for the embedding model, `ngram_prediction.py` for the n-gram one;
each held to scikit-learn's own `predict_proba` by a test), because importing scikit-learn (and
SciPy under it) cost a cold `billing-assistant ask` about a second. Arrays that cannot be one
estimator raise ValueError, which the artifact store reads as a damaged file. Which attributes a fitted estimator needs is scikit-learn's business and may change
between versions: the library version is in every artifact's key, and the comparison tests
catch a rebuild that no longer matches.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from billing_toolkit.assistant.understanding.artifacts import Arrays

if TYPE_CHECKING:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

Settings = Mapping[str, object]


def logistic_arrays(
    model: LogisticRegression, prefix: str = ""
) -> dict[str, npt.NDArray[np.generic]]:
    return {
        f"{prefix}classes": np.asarray(model.classes_, dtype=str),
        f"{prefix}coef": np.asarray(model.coef_),
        f"{prefix}intercept": np.asarray(model.intercept_),
    }


def logistic_probabilities(scores: npt.NDArray[np.floating[Any]]) -> npt.NDArray[Any]:
    """scikit-learn's `predict_proba` from a logistic regression's decision scores (one row
    per text; one column for a binary model, whose positive class is the second label, else
    one per label): the logistic function of the one score, else the softmax of the row."""
    if scores.shape[1] == 1:
        positive = 1 / (1 + np.exp(-scores[:, 0]))
        return np.column_stack([1 - positive, positive])
    exponent = np.exp(scores - scores.max(axis=1, keepdims=True))
    return exponent / exponent.sum(axis=1, keepdims=True)


class LogisticPredictor:
    """`predict_proba` and `classes_` of a fitted logistic regression, read from its arrays."""

    def __init__(self, arrays: Arrays, prefix: str = "") -> None:
        classes, coef = arrays[f"{prefix}classes"], arrays[f"{prefix}coef"]
        intercept = arrays[f"{prefix}intercept"]
        rows = 1 if len(classes) == 2 else len(classes)  # a binary model has one row
        if (
            classes.ndim != 1
            or coef.ndim != 2
            or coef.shape[0] != rows
            or intercept.shape != (rows,)
        ):
            raise ValueError("the logistic regression arrays disagree in shape")
        self.arrays = {
            f"{prefix}classes": classes,
            f"{prefix}coef": coef,
            f"{prefix}intercept": intercept,
        }
        self.classes_ = classes
        # In the fitted dtype (float32 for float32 vectors), as scikit-learn computes.
        dtype = np.result_type(coef, intercept)
        self._coef, self._intercept = np.asarray(coef, dtype), np.asarray(intercept, dtype)

    def predict_proba(self, features: npt.NDArray[np.floating[Any]]) -> npt.NDArray[Any]:
        return logistic_probabilities(features @ self._coef.T + self._intercept)


def tfidf_arrays(vectorizer: TfidfVectorizer, prefix: str) -> dict[str, npt.NDArray[np.generic]]:
    vocabulary: dict[str, int] = vectorizer.vocabulary_
    terms = sorted(vocabulary, key=vocabulary.__getitem__)
    return {f"{prefix}terms": np.array(terms, dtype=str), f"{prefix}idf": vectorizer.idf_}
