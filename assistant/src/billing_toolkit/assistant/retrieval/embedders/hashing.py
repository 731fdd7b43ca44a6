"""The light default embedder: character n-grams hashed into a fixed-size vector.

This is a **lexical** embedder, and says so: it needs no model and no download, it is fast
and deterministic, and it scores spelling overlap, not meaning. It forgives what exact terms
do not (``facturación``/``facturas``, a typo, a missing accent) but it cannot tell that
"¿cuándo me cortan el servicio?" is about *suspensión*, nor link a Spanish question to an
English document. For that, use the ``minilm`` embedder (the ``embeddings`` extra).

Stopwords are dropped before hashing (see :func:`content_words`): otherwise the n-grams of
"de", "la", "the" would dominate every vector and make all chunks look alike.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from billing_toolkit.assistant.retrieval.analysis import content_words
from billing_toolkit.assistant.retrieval.embedders.base import Vectors, l2_normalise

DEFAULT_DIMENSION = 512
NGRAM_SIZES = (3, 4, 5)
_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)
_MIX = np.uint64(0xBF58476D1CE4E5B9)


class HashingEmbedder:
    """Signed feature hashing of character 3-, 4- and 5-grams of the content words.

    The hash is plain 64-bit arithmetic on code points, not Python's ``hash()`` (salted per
    process), so the same text gives the same vector in every process and on every machine.
    Counts are damped with ``log1p`` so a long chunk repeating one word does not win on it.
    """

    def __init__(self, dimension: int = DEFAULT_DIMENSION) -> None:
        if dimension < 16:
            raise ValueError(f"dimension must be at least 16, got {dimension}")
        self._dimension = dimension

    @property
    def identity(self) -> str:
        sizes = "".join(str(n) for n in NGRAM_SIZES)
        return f"hashing-char{sizes}-v1/{self._dimension}"

    @property
    def dimension(self) -> int:
        return self._dimension

    @property
    def costly(self) -> bool:
        return False  # a few hashes per text: cheaper than reading a file

    def embed(self, texts: Sequence[str]) -> Vectors:
        matrix = np.zeros((len(texts), self._dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            matrix[row] = self._embed_one(text)
        return l2_normalise(matrix)

    def _embed_one(self, text: str) -> Vectors:
        padded = " " + " ".join(content_words(text)) + " "
        codes = np.frombuffer(padded.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
        counts = np.zeros(self._dimension, dtype=np.float32)
        for size in NGRAM_SIZES:
            windows = len(codes) - size + 1
            if windows <= 0:
                continue
            hashes = np.full(windows, np.uint64(size), dtype=np.uint64)
            for offset in range(size):
                hashes = (hashes ^ codes[offset : offset + windows]) * _MULTIPLIER
            hashes ^= hashes >> np.uint64(31)
            hashes *= _MIX
            buckets = (hashes >> np.uint64(33)) % np.uint64(self._dimension)
            signs = np.where(hashes & np.uint64(1), 1.0, -1.0).astype(np.float32)
            counts += np.bincount(
                buckets.astype(np.int64), weights=signs, minlength=self._dimension
            ).astype(np.float32)
        return np.sign(counts) * np.log1p(np.abs(counts))
