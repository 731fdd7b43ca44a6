"""How much say each model of the ensemble gets, per language, found without the test split.

The weights are fitted on the *train* split alone, by cross-validation grouped by template
(`GroupKFold`: a template's rows are all in one fold, as train and test are split), so the
held-out figures stay an honest measure of the weighted ensemble. For each language, every
weight of the second model on a 0.1 grid is scored by the out-of-fold accuracy of the mixed
probabilities; a tie goes to the smaller weight (the English model is the one to distrust).
`models.ENSEMBLE_WEIGHTS` is the result written down, and a test re-fits it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from billing_toolkit.assistant.text.language import Language, detect_language
from billing_toolkit.assistant.understanding.classifier import IntentClassifier, classify_all
from billing_toolkit.assistant.understanding.labels import IntentLabel
from billing_toolkit.assistant.understanding.utterances import Utterance

Trainer = Callable[[Sequence[Utterance]], IntentClassifier]
GRID = tuple(round(step / 10, 1) for step in range(11))
FOLDS = 5


def out_of_fold(rows: Sequence[Utterance], trainer: Trainer, folds: int = FOLDS) -> np.ndarray:
    """Each row's probabilities from a model trained on the folds without its template."""
    from sklearn.model_selection import GroupKFold  # lazily: only fitting weights needs it

    labels = list(IntentLabel)
    table = np.zeros((len(rows), len(labels)))
    splits = GroupKFold(n_splits=folds).split(rows, groups=[row.template for row in rows])
    for fitted, held in splits:
        model = trainer([rows[i] for i in fitted])
        predictions = classify_all(model, [rows[i].text for i in held])
        for i, prediction in zip(held, predictions, strict=True):
            table[i] = [prediction.probability(label) for label in labels]
    return table


def fit_weights(
    rows: Sequence[Utterance], first: Trainer, second: Trainer, folds: int = FOLDS
) -> dict[Language, tuple[float, float]]:
    """(first, second) weights per language, as the module docstring says."""
    truth = np.array([list(IntentLabel).index(row.label) for row in rows])
    languages = np.array([detect_language(row.text).value for row in rows])
    one, two = out_of_fold(rows, first, folds), out_of_fold(rows, second, folds)
    weights: dict[Language, tuple[float, float]] = {}
    for language in Language:
        mine = languages == language.value
        scores = [
            float((((1 - w) * one[mine] + w * two[mine]).argmax(axis=1) == truth[mine]).mean())
            for w in GRID
        ]
        best = GRID[scores.index(max(scores))]
        weights[language] = (round(1 - best, 1), best)
    return weights
