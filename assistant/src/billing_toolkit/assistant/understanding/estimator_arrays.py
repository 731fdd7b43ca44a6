"""Fitted scikit-learn estimators as plain arrays (and a logistic regression back), for the
artifact files.

Only what prediction reads is kept: a logistic regression's classes, coefficients and
intercepts; a TF-IDF vectorizer's terms (in column order) and inverse document frequencies.
The embedding model's regression is rebuilt from its settings plus those arrays, so it predicts
with scikit-learn's own code, bit for bit as the one that was fitted; the n-gram model predicts
from its arrays in numpy alone (`ngram_prediction.py`, held to scikit-learn by a test). Arrays
that cannot be one estimator raise ValueError, which the artifact store reads as a damaged
file. Which attributes a fitted estimator needs is scikit-learn's business and may change
between versions: the library version is in every artifact's key, and the comparison tests
catch a rebuild that no longer matches.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

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


def logistic_from(arrays: Arrays, settings: Settings, prefix: str = "") -> LogisticRegression:
    from sklearn.linear_model import LogisticRegression

    classes, coef = arrays[f"{prefix}classes"], arrays[f"{prefix}coef"]
    intercept = arrays[f"{prefix}intercept"]
    rows = 1 if len(classes) == 2 else len(classes)  # a binary model has one row
    if classes.ndim != 1 or coef.ndim != 2 or coef.shape[0] != rows or intercept.shape != (rows,):
        raise ValueError("the logistic regression arrays disagree in shape")
    model = LogisticRegression(**settings)  # pyright: ignore[reportArgumentType] (settings are its keywords)
    model.classes_ = classes
    model.coef_ = coef
    model.intercept_ = intercept
    # set by fit; sklearn's type hints do not declare it
    model.n_features_in_ = coef.shape[1]  # pyright: ignore[reportAttributeAccessIssue]
    return model


def tfidf_arrays(vectorizer: TfidfVectorizer, prefix: str) -> dict[str, npt.NDArray[np.generic]]:
    vocabulary: dict[str, int] = vectorizer.vocabulary_
    terms = sorted(vocabulary, key=vocabulary.__getitem__)
    return {f"{prefix}terms": np.array(terms, dtype=str), f"{prefix}idf": vectorizer.idf_}
