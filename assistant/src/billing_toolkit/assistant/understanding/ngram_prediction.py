"""The fitted n-gram model's prediction, in numpy alone.

Fitting needs scikit-learn; predicting from the artifact's arrays does not, and importing
scikit-learn (and SciPy under it) was most of a cold `billing-assistant ask`. So prediction
restates the arithmetic scikit-learn's fitted pipeline does: the two analyzers the model is
configured with (character n-grams padded inside word boundaries, `char_wb`; word n-grams
over a token pattern), counts of the terms in the vocabulary, sublinear TF (`1 + log tf`)
times IDF, each part L2-normalised on its own (a `FeatureUnion` of two vectorizers), then the
logistic regression's scores and their softmax.

Held to scikit-learn's own `predict_proba` on every held-out utterance by a test, so an
analyzer that drifts from the library's fails there (the library version is also part of the
artifact's key). Bias: settings this module does not restate, and arrays that cannot be one
model, raise ValueError — the artifact store then refits instead of predicting wrong.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from billing_toolkit.assistant.understanding.artifacts import Arrays
from billing_toolkit.assistant.understanding.estimator_arrays import logistic_probabilities

Settings = Mapping[str, object]
FloatArray = npt.NDArray[np.float64]

_WHITE_SPACES = re.compile(r"\s\s+")
_KNOWN = {"analyzer", "ngram_range", "sublinear_tf", "token_pattern"}


def char_wb_ngrams(text: str, low: int, high: int) -> list[str]:
    """Character n-grams of each whitespace-separated word padded with one space each side;
    a word shorter than n yields itself once (scikit-learn's `char_wb`)."""
    grams: list[str] = []
    for word in _WHITE_SPACES.sub(" ", text.lower()).split():
        padded = f" {word} "
        for n in range(low, high + 1):
            offset = 0
            grams.append(padded[:n])
            while offset + n < len(padded):
                offset += 1
                grams.append(padded[offset : offset + n])
            if offset == 0:
                break
    return grams


def word_ngrams(text: str, low: int, high: int, pattern: re.Pattern[str]) -> list[str]:
    """The tokens (when `low` is 1) and the space-joined runs of 2…`high` of them."""
    tokens: list[str] = pattern.findall(text.lower())
    grams = list(tokens) if low == 1 else []
    for n in range(max(low, 2), min(high, len(tokens)) + 1):
        grams += [" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]
    return grams


def analyzer(settings: Settings) -> Callable[[str], list[str]]:
    """The term list of a text under one vectorizer's settings (only those the model uses)."""
    unknown = set(settings) - _KNOWN
    if unknown:
        raise ValueError(f"n-gram settings not restated for prediction: {sorted(unknown)}")
    low, high = settings["ngram_range"]  # pyright: ignore[reportGeneralTypeIssues]
    if settings["analyzer"] == "char_wb":
        return lambda text: char_wb_ngrams(text, low, high)
    if settings["analyzer"] == "word":
        pattern = re.compile(str(settings["token_pattern"]))
        return lambda text: word_ngrams(text, low, high, pattern)
    raise ValueError(f"n-gram analyzer not restated for prediction: {settings['analyzer']!r}")


@dataclass(frozen=True, slots=True)
class TfidfPart:
    """One vectorizer of the union: its analyzer, vocabulary (term → column) and IDF."""

    analyse: Callable[[str], list[str]]
    vocabulary: Mapping[str, int]
    idf: FloatArray
    sublinear: bool

    @classmethod
    def of(cls, arrays: Arrays, settings: Settings, prefix: str) -> TfidfPart:
        terms, idf = arrays[f"{prefix}terms"], arrays[f"{prefix}idf"]
        vocabulary = {str(term): column for column, term in enumerate(terms.tolist())}
        if terms.ndim != 1 or idf.shape != terms.shape or len(vocabulary) != len(terms):
            raise ValueError("the TF-IDF arrays disagree (shape or a repeated term)")
        sublinear = bool(settings.get("sublinear_tf", False))
        return cls(analyzer(settings), vocabulary, idf.astype(np.float64), sublinear)

    def features(self, text: str) -> tuple[npt.NDArray[np.intp], FloatArray]:
        """The text's non-zero columns and their normalised TF-IDF values."""
        counts = Counter(term for term in self.analyse(text) if term in self.vocabulary)
        columns = np.array([self.vocabulary[term] for term in counts], dtype=np.intp)
        tf = np.array(list(counts.values()), dtype=np.float64)
        values = (np.log(tf) + 1 if self.sublinear else tf) * self.idf[columns]
        norm = float(np.sqrt(np.dot(values, values)))
        return columns, values / norm if norm > 0 else values


class NgramPredictor:
    """`predict_proba` and `classes_` of the fitted pipeline, read from its arrays."""

    def __init__(self, arrays: Arrays, chars: Settings, words: Settings) -> None:
        self._chars = TfidfPart.of(arrays, chars, "chars_")
        self._words = TfidfPart.of(arrays, words, "words_")
        self.arrays = arrays
        self.classes_ = arrays["classes"]
        self._coef = arrays["coef"].astype(np.float64)
        self._intercept = arrays["intercept"].astype(np.float64)
        self._offset = len(self._chars.vocabulary)
        rows = 1 if len(self.classes_) == 2 else len(self.classes_)  # binary: one row
        if self._coef.shape != (rows, self._offset + len(self._words.vocabulary)):
            raise ValueError("the n-gram artifact's coefficients do not match its vocabulary")
        if self._intercept.shape != (rows,):
            raise ValueError("the n-gram artifact's intercepts do not match its classes")

    def predict_proba(self, texts: Sequence[str]) -> FloatArray:
        return np.array([self._probabilities(text) for text in texts]).reshape(
            len(texts), len(self.classes_)
        )

    def _probabilities(self, text: str) -> FloatArray:
        chars, char_values = self._chars.features(text)
        words, word_values = self._words.features(text)
        scores = (
            self._coef[:, chars] @ char_values
            + self._coef[:, words + self._offset] @ word_values
            + self._intercept
        )
        return logistic_probabilities(scores[None, :])[0]
