"""The lexical default is deterministic; the real model understands what the default cannot."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from billing_toolkit.assistant.retrieval.embedders import (
    HashingEmbedder,
    MiniLMEmbedder,
    get_embedder,
)
from billing_toolkit.assistant.retrieval.errors import EmbedderError


def cosine(embedder: object, a: str, b: str) -> float:
    vectors = embedder.embed([a, b])  # type: ignore[attr-defined]
    return float(vectors[0] @ vectors[1])


def test_hashing_vectors_are_unit_length_float32() -> None:
    vectors = HashingEmbedder().embed(["Recargo por mora del 5 %", "Zelle"])
    assert vectors.dtype == np.float32
    assert vectors.shape == (2, 512)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_hashing_is_identical_across_processes() -> None:
    """Python's hash() is salted per process; ours must not be."""
    code = (
        "from billing_toolkit.assistant.retrieval.embedders import HashingEmbedder;"
        "print(HashingEmbedder().embed(['facturación de mayo'])[0].tobytes().hex())"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
        for _ in range(2)
    }
    assert len(runs) == 1
    assert runs.pop().strip() == HashingEmbedder().embed(["facturación de mayo"])[0].tobytes().hex()


def test_hashing_forgives_spelling_but_is_only_lexical() -> None:
    embedder = HashingEmbedder()
    assert cosine(embedder, "facturas", "facturación") > cosine(embedder, "facturas", "reconexión")
    assert cosine(embedder, "reconexion", "reconexión") == pytest.approx(1.0)


def test_stopword_only_text_embeds_to_zero() -> None:
    assert not HashingEmbedder().embed(["de la el the"]).any()


def test_unknown_embedder_names_list_the_valid_ones() -> None:
    with pytest.raises(EmbedderError, match="hashing, minilm"):
        get_embedder("bert")


def test_minilm_produces_normalised_384_dimensional_vectors(minilm: MiniLMEmbedder) -> None:
    vectors = minilm.embed(["¿cómo pago?", "late fee"])
    assert vectors.shape == (2, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert minilm.embed([]).shape == (0, 384)


def test_minilm_scores_meaning_where_the_lexical_default_cannot(minilm: MiniLMEmbedder) -> None:
    """No word in common between question and answer: only meaning links them."""
    question = "what does the late fee cost?"
    answer = "A penalty of 5% is charged on overdue amounts."
    unrelated = "Fiber installation includes the technician visit."
    assert cosine(minilm, question, answer) > cosine(minilm, question, unrelated) + 0.2
    hashing = HashingEmbedder()
    assert cosine(hashing, question, answer) < cosine(hashing, question, unrelated)
