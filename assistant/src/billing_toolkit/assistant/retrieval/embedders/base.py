"""The interface every embedder implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors, one row per text.

    ``identity`` names the model *and* its configuration; a store remembers the identity it
    was built with and refuses to be searched with another, because cosines between two
    models' vectors mean nothing.
    """

    @property
    def identity(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    @property
    def costly(self) -> bool:
        """Whether embedding takes long enough that the shipped texts' vectors are kept on
        disk (`vector_cache.py`): a model, not arithmetic a file read would not beat."""
        ...

    def embed(self, texts: Sequence[str]) -> Vectors: ...


def l2_normalise(matrix: Vectors) -> Vectors:
    """Rows scaled to unit length (all-zero rows stay zero), so a dot product is a cosine."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
