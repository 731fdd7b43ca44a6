"""CRAG-style pruning without a second model: drop fused chunks that are noise on this turn.

Fusion orders, it does not filter: asked for six chunks it returns six, whether or not the
sixth makes sense, and that filler costs prompt tokens and dilutes the evidence. The
Corrective RAG paper uses a separate evaluator model to judge each chunk; here the retriever
already knows each chunk's cosine and whether full-text proved it relevant, which is enough.

Bias: **when in doubt, keep.** Over-pruning deletes the one line that answered and escalates
a question the assistant could have answered; an extra chunk only costs tokens. (The grounding
verifier has the opposite bias, on purpose.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

DEFAULT_MARGIN = 0.12
"""How far below this turn's best cosine a chunk may fall and still be kept.

Relative to the best of the turn rather than a fixed threshold: with a fixed 0.5, a strong
query (best 0.85) keeps a 0.5 that is noise next to it, and a weak one (best 0.42) loses
everything, including the answer."""

DEFAULT_MIN_CHUNKS = 2
"""Never hand generation fewer chunks than this when fusion found them."""


class Scorable(Protocol):
    @property
    def vector_score(self) -> float: ...

    @property
    def matched_by_text(self) -> bool: ...


class PruneReason(StrEnum):
    TEXT_MATCH = "full-text match"
    WITHIN_MARGIN = "within margin"
    FEW_CANDIDATES = "no more than min_chunks candidates"
    BACKFILL = "back-filled to min_chunks"
    BELOW_MARGIN = "below margin"


@dataclass(frozen=True, slots=True)
class PruneDecision:
    kept: bool
    reason: PruneReason


@dataclass(frozen=True, slots=True)
class PruneOutcome:
    """One decision per candidate, in the candidates' order, and the cut-off that applied."""

    decisions: tuple[PruneDecision, ...]
    best_score: float
    cutoff: float


def decide(
    candidates: Sequence[Scorable],
    *,
    margin: float = DEFAULT_MARGIN,
    min_chunks: int = DEFAULT_MIN_CHUNKS,
) -> PruneOutcome:
    """Decide, for fused candidates ordered best first, which ones reach generation.

    A full-text match always survives: the words or identifier are literally in the chunk,
    which is proof of relevance, and identifiers reach us with a low cosine because digits
    carry no meaning for an embedding. Everything else must score within ``margin`` of the
    best cosine of this turn. If fewer than ``min_chunks`` survive, the best of the dropped
    ones are added back in fused order.
    """
    if margin < 0:
        raise ValueError(f"margin must be >= 0, got {margin}")
    if min_chunks < 0:
        raise ValueError(f"min_chunks must be >= 0, got {min_chunks}")
    best = max((c.vector_score for c in candidates), default=0.0)
    cutoff = best - margin
    if len(candidates) <= min_chunks:
        keep_all = PruneDecision(True, PruneReason.FEW_CANDIDATES)
        return PruneOutcome((keep_all,) * len(candidates), best, cutoff)

    decisions = [_judge(c, cutoff) for c in candidates]
    missing = min_chunks - sum(d.kept for d in decisions)
    for index, decision in enumerate(decisions):
        if missing <= 0:
            break
        if not decision.kept:
            decisions[index] = PruneDecision(True, PruneReason.BACKFILL)
            missing -= 1
    return PruneOutcome(tuple(decisions), best, cutoff)


def _judge(candidate: Scorable, cutoff: float) -> PruneDecision:
    if candidate.matched_by_text:
        return PruneDecision(True, PruneReason.TEXT_MATCH)
    if candidate.vector_score >= cutoff:
        return PruneDecision(True, PruneReason.WITHIN_MARGIN)
    return PruneDecision(False, PruneReason.BELOW_MARGIN)
