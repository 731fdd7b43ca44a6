"""A fitted intent model is an artifact: fitted once per training set and library version,
loaded by every later process, refitted when its file cannot be trusted."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from billing_toolkit.assistant.retrieval.embedders.hashing import HashingEmbedder
from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.understanding import artifacts
from billing_toolkit.assistant.understanding.classifier import IntentClassifier
from billing_toolkit.assistant.understanding.embedding_classifier import (
    EmbeddingClassifier,
    _logreg,
)
from billing_toolkit.assistant.understanding.estimator_arrays import (
    LogisticPredictor,
    logistic_arrays,
)
from billing_toolkit.assistant.understanding.ngram_classifier import (
    CHARS,
    WORDS,
    NgramClassifier,
    dump_pipeline,
    fit_pipeline,
)
from billing_toolkit.assistant.understanding.ngram_prediction import NgramPredictor
from billing_toolkit.assistant.understanding.utterances import Utterance, load_utterances

if TYPE_CHECKING:
    from sklearn.pipeline import Pipeline

SOME_ROWS = load_utterances().train[::10]
"""A tenth of the train split: every label, and a fit that takes a fraction of a second."""
HELD_OUT = load_utterances().test


def _fits(kind: str = "ngram") -> int:
    return artifacts.FITS[kind]


def _files(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.npz"))


def _same_predictions(
    one: IntentClassifier, other: IntentClassifier, rows: Sequence[Utterance] = HELD_OUT
) -> bool:
    return all(one.classify(r.text).scores == other.classify(r.text).scores for r in rows)


def test_a_loaded_n_gram_model_predicts_exactly_as_the_fresh_fit(tmp_path: Path) -> None:
    before = _fits()
    fresh = NgramClassifier(SOME_ROWS, tmp_path)
    loaded = NgramClassifier(SOME_ROWS, tmp_path)
    assert _fits() == before + 1, "the second one was loaded, not fitted"
    assert loaded._model is not fresh._model
    assert _same_predictions(fresh, loaded)


def test_a_loaded_embedding_model_predicts_exactly_as_the_fresh_fit(tmp_path: Path) -> None:
    embedder, before = HashingEmbedder(), _fits("minilm")
    fresh = EmbeddingClassifier(SOME_ROWS, embedder, tmp_path)
    loaded = EmbeddingClassifier(SOME_ROWS, embedder, tmp_path)
    assert _fits("minilm") == before + 1
    assert _same_predictions(fresh, loaded)


_CHILD = """
from billing_toolkit.assistant.understanding import artifacts
from billing_toolkit.assistant.understanding.classifier import IntentClassifier
from billing_toolkit.assistant.understanding.ngram_classifier import NgramClassifier
from billing_toolkit.assistant.understanding.utterances import load_utterances
model = NgramClassifier(load_utterances().train[::10])
print(artifacts.FITS["ngram"], model.classify("cuanto debo").label.value)
"""


def _child(cache: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "BILLING_TOOLKIT_CACHE": str(cache)}
    return subprocess.Popen(
        [sys.executable, "-c", _CHILD], env=env, stdout=subprocess.PIPE, text=True
    )


def _answer(child: subprocess.Popen[str]) -> tuple[int, str]:
    out, _ = child.communicate(timeout=300)
    assert child.returncode == 0
    fits, label = out.split()
    return int(fits), label


def test_processes_fit_once_and_later_processes_load_it(tmp_path: Path) -> None:
    together = [_answer(child) for child in [_child(tmp_path) for _ in range(2)]]
    assert sorted(together) == [(0, "balance"), (1, "balance")], "one fitted, one waited for it"
    [artifact] = _files(tmp_path)
    written = artifact.stat().st_mtime_ns
    assert _answer(_child(tmp_path)) == (0, "balance")
    assert _files(tmp_path) == [artifact] and artifact.stat().st_mtime_ns == written


def _cut_in_half(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _garbage(path: Path) -> None:
    path.write_bytes(b"PK\x03\x04 not a zip at all")


@pytest.mark.parametrize("damage", [_cut_in_half, _garbage], ids=["truncated", "garbage"])
def test_a_damaged_artifact_is_refitted_and_rewritten(
    tmp_path: Path, damage: Callable[[Path], None]
) -> None:
    fresh = NgramClassifier(SOME_ROWS, tmp_path)
    [artifact] = _files(tmp_path)
    damage(artifact)
    before = _fits()
    again = NgramClassifier(SOME_ROWS, tmp_path)
    assert _fits() == before + 1
    assert _same_predictions(fresh, again, HELD_OUT[::10])
    NgramClassifier(SOME_ROWS, tmp_path)
    assert _fits() == before + 1, "the rewritten file is whole again"


def test_another_models_file_under_this_key_is_not_trusted(tmp_path: Path) -> None:
    NgramClassifier(SOME_ROWS, tmp_path)
    NgramClassifier(SOME_ROWS[1:], tmp_path)
    mine, other = sorted(_files(tmp_path), key=lambda path: path.stat().st_mtime_ns)
    other.replace(mine)  # a stale or copied file: whole, but fitted on other rows
    before = _fits()
    NgramClassifier(SOME_ROWS, tmp_path)
    assert _fits() == before + 1


def _label_swapped(rows: tuple[Utterance, ...]) -> tuple[Utterance, ...]:
    first, second = rows[0], next(row for row in rows if row.label is not rows[0].label)
    return (Utterance(first.text, second.label, first.template, first.split), *rows[1:])


def test_a_changed_training_set_or_library_makes_a_new_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    NgramClassifier(SOME_ROWS, tmp_path)
    NgramClassifier(_label_swapped(SOME_ROWS), tmp_path)  # one row relabelled
    assert len(_files(tmp_path)) == 2
    versions = artifacts.library_versions()
    monkeypatch.setattr(artifacts, "library_versions", lambda: {**versions, "sklearn": "99.0"})
    before = _fits()
    NgramClassifier(SOME_ROWS, tmp_path)
    assert _fits() == before + 1 and len(_files(tmp_path)) == 3


def test_an_unwritable_cache_directory_still_answers(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    before = _fits()
    for _ in range(2):
        model = NgramClassifier(SOME_ROWS, blocker / "cache")
        assert model.classify("cuanto debo").label.value == "balance"
    assert _fits() == before + 2, "nothing could be kept, so each process fits: slower, no worse"


def _fitted(rows: Sequence[Utterance]) -> tuple[Pipeline, list[str]]:
    texts = [fold(row.text) for row in rows]
    return fit_pipeline(texts, [row.label.value for row in rows]), texts


@pytest.fixture(scope="module")
def fitted_pipeline() -> Pipeline:
    return _fitted(SOME_ROWS)[0]


HELD_OUT_FOLDED = [fold(row.text) for row in HELD_OUT]


def test_the_numpy_prediction_is_scikit_learns_on_every_held_out_row(
    fitted_pipeline: Pipeline,
) -> None:
    predictor = NgramPredictor(dump_pipeline(fitted_pipeline), CHARS, WORDS)
    expected = fitted_pipeline.predict_proba(HELD_OUT_FOLDED)
    got = predictor.predict_proba(HELD_OUT_FOLDED)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    assert list(predictor.classes_) == list(fitted_pipeline.classes_)


@pytest.mark.parametrize(
    ("chars", "words"),
    [
        ({**CHARS, "sublinear_tf": False}, WORDS),  # raw counts instead of 1 + log tf
        ({**CHARS, "ngram_range": (2, 4)}, WORDS),  # one n-gram length short
        (CHARS, {**WORDS, "ngram_range": (1, 1)}),  # the bigrams forgotten
        (CHARS, {**WORDS, "token_pattern": r"(?u)\b\w\w+\b"}),  # one-letter words dropped
    ],
)
def test_a_prediction_that_analyses_differently_is_caught(
    fitted_pipeline: Pipeline, chars: dict[str, object], words: dict[str, object]
) -> None:
    """What the comparison above is for: each of these drifts moves the probabilities."""
    drifted = NgramPredictor(dump_pipeline(fitted_pipeline), chars, words)
    expected = fitted_pipeline.predict_proba(HELD_OUT_FOLDED)
    assert not np.allclose(drifted.predict_proba(HELD_OUT_FOLDED), expected, rtol=0, atol=1e-12)


def test_a_two_label_model_predicts_as_scikit_learn() -> None:
    rows = [r for r in SOME_ROWS if r.label.value in {"balance", "person"}]
    pipeline, texts = _fitted(rows)
    predictor = NgramPredictor(dump_pipeline(pipeline), CHARS, WORDS)
    np.testing.assert_allclose(
        predictor.predict_proba(texts), pipeline.predict_proba(texts), rtol=0, atol=1e-12
    )


@pytest.mark.parametrize(
    ("chars", "message"),
    [
        ({**CHARS, "analyzer": "char"}, "analyzer not restated"),
        ({**CHARS, "lowercase": False}, "settings not restated"),
    ],
)
def test_settings_prediction_does_not_restate_are_refused(
    fitted_pipeline: Pipeline, chars: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        NgramPredictor(dump_pipeline(fitted_pipeline), chars, WORDS)


def test_arrays_that_cannot_be_one_model_are_refused(fitted_pipeline: Pipeline) -> None:
    arrays = dict(dump_pipeline(fitted_pipeline))
    with pytest.raises(ValueError, match="coefficients"):
        NgramPredictor({**arrays, "coef": arrays["coef"][:, :-1]}, CHARS, WORDS)
    with pytest.raises(ValueError, match="intercepts"):
        NgramPredictor({**arrays, "intercept": arrays["intercept"][:-1]}, CHARS, WORDS)
    with pytest.raises(ValueError, match="repeated term"):
        terms = arrays["chars_terms"].copy()
        terms[1] = terms[0]
        NgramPredictor({**arrays, "chars_terms": terms}, CHARS, WORDS)


def test_loading_an_n_gram_model_does_not_import_scikit_learn(tmp_path: Path) -> None:
    """The point of predicting in numpy: a cold `ask` does not pay for importing it."""
    NgramClassifier(SOME_ROWS, tmp_path)
    child = (
        "import sys\n"
        "from pathlib import Path\n"
        "from billing_toolkit.assistant.understanding.ngram_classifier import NgramClassifier\n"
        "from billing_toolkit.assistant.understanding.utterances import load_utterances\n"
        f"model = NgramClassifier(load_utterances().train[::10], Path({str(tmp_path)!r}))\n"
        "print(model.classify('cuanto debo').label.value, 'sklearn' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, timeout=120, check=True
    )
    label, imported = done.stdout.split()
    assert label == NgramClassifier(SOME_ROWS, tmp_path).classify("cuanto debo").label.value
    assert imported == "False"


@pytest.mark.parametrize(
    ("labels", "tolerance"),
    [
        (None, 1e-12),
        # float32 vectors: the logistic function of a two-label model differs from SciPy's
        # `expit` in the last bit of a float32 (about 1e-7), never in the answer.
        ({"balance", "person"}, 1e-6),
    ],
)
def test_the_embedding_models_numpy_prediction_is_scikit_learns(
    labels: set[str] | None, tolerance: float
) -> None:
    """The embedding model predicts from its arrays without importing scikit-learn; on the
    held-out rows that is scikit-learn's own `predict_proba` (many labels, and two)."""
    rows = [r for r in SOME_ROWS if labels is None or r.label.value in labels]
    embedder = HashingEmbedder()
    fitted = _logreg().fit(embedder.embed([r.text for r in rows]), [r.label.value for r in rows])
    predictor = LogisticPredictor(logistic_arrays(fitted))
    held_out = embedder.embed([r.text for r in HELD_OUT])
    got, expected = predictor.predict_proba(held_out), fitted.predict_proba(held_out)
    np.testing.assert_allclose(got, expected, rtol=0, atol=tolerance)
    assert (got.argmax(axis=1) == expected.argmax(axis=1)).all()
    assert list(predictor.classes_) == list(fitted.classes_)


def test_logistic_arrays_that_are_no_model_are_refused() -> None:
    fitted = _logreg().fit(
        HashingEmbedder().embed([r.text for r in SOME_ROWS]), [r.label.value for r in SOME_ROWS]
    )
    arrays = logistic_arrays(fitted)
    for damaged in (
        {**arrays, "coef": arrays["coef"][:-1]},  # a label's row lost
        {**arrays, "intercept": arrays["intercept"][:-1]},
        {**arrays, "classes": arrays["classes"][:, None]},
    ):
        with pytest.raises(ValueError, match="disagree in shape"):
            LogisticPredictor(damaged)
