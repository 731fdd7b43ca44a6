"""Reciprocal Rank Fusion of the full-text and vector rankings."""

from __future__ import annotations

from collections.abc import Sequence

DEFAULT_RRF_K = 60
"""Smoothing constant from Cormack et al. (2009). It damps the top positions so that one
leg's first place cannot outvote agreement between the legs."""


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[str]], *, k: int = DEFAULT_RRF_K
) -> list[tuple[str, float]]:
    """Fuse best-first rankings of chunk ids into one, scored ``Σ 1/(k + rank)``.

    Only positions count: a BM25-like score and a cosine live on different scales, and
    adding them would pretend otherwise. Equal scores are ordered by chunk id, so identical
    inputs always give the identical order (a result that reorders between runs makes tests
    flaky and debugging impossible).
    """
    if k < 1:
        raise ValueError(f"RRF k must be a positive integer, got {k}")
    scores: dict[str, float] = {}
    for ranking in rankings:
        for position, chunk_id in enumerate(ranking, start=1):
            scores[chunk_id] = scores.get(chunk_id, 0.0) + 1.0 / (k + position)
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))
