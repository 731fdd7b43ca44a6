"""Is this chunk relevant enough? The one place that decides, in two steps.

Fusion orders, it does not filter: asked for six chunks it returns six, whether or not the
sixth makes sense. Two questions follow, and both are answered here, from what the retriever
already knows of each chunk — its cosine to the question, whether full-text proved it
relevant (`matched_by_text`), whether it shares any term with the question (`text_rank`) —
without a second model (the Corrective RAG paper uses an evaluator model for this):

1. **Pruning** (`decide`, run by the retriever on every search): which fused chunks are noise
   *next to the others*. Relative to the best cosine of the turn, not a fixed threshold:
   with a fixed 0.5, a strong query (best 0.85) keeps a 0.5 that is noise next to it, and a
   weak one (best 0.42) loses everything, including the answer. Filler costs prompt tokens
   and dilutes the evidence.
2. **The context floor** (`ContextFloor`, applied by the turn to whatever its retriever
   returned): whether any chunk answers *at all*. A relative margin cannot say that — the
   best chunk of the turn is always within the margin of itself, even for "tell me a joke"
   — so here, and only here, absolute thresholds decide, and a turn left with no chunk and
   no billing data escalates NO_CONTEXT instead of narrating from noise.

Bias: **when in doubt, keep.** Over-pruning deletes the one line that answered and escalates
a question the assistant could have answered; an extra chunk only costs tokens. (The grounding
verifier has the opposite bias, on purpose.) A full-text match survives both steps: the words
or identifier are literally in the chunk, and identifiers reach us with a low cosine because
digits carry no meaning for an embedding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

DEFAULT_MARGIN = 0.12
"""How far below this turn's best cosine a chunk may fall and still be kept by pruning."""

DEFAULT_MIN_CHUNKS = 2
"""Never hand generation fewer chunks than this when fusion found them."""

DEFAULT_MIN_VECTOR_SCORE = 0.3
"""The cosine at which a chunk is context on its own (see `ContextFloor`)."""

DEFAULT_MIN_VECTOR_SCORE_WITH_SHARED_TERM = 0.15
"""The cosine at which a chunk that shares a term with the question is context."""


class Scorable(Protocol):
    """What pruning reads of a fused candidate."""

    @property
    def vector_score(self) -> float: ...

    @property
    def matched_by_text(self) -> bool: ...


class ContextCandidate(Protocol):
    """What the context floor reads of a retrieved chunk (any retriever's, a test's fake)."""

    @property
    def vector_score(self) -> float | None:
        """None when the retriever gave no cosine: read as 0."""

    @property
    def matched_by_text(self) -> bool: ...

    @property
    def text_rank(self) -> int | None:
        """Set when the chunk shares at least one term with the question."""


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

    A full-text match always survives; everything else must score within ``margin`` of the
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


@dataclass(frozen=True, slots=True)
class ContextFloor:
    """Whether a retrieved chunk counts as context for the turn's answer at all.

    A chunk counts when full-text matched it (an identifier, or every word of the question),
    when its cosine reaches `min_vector_score`, or when it shares at least one term with the
    question and its cosine reaches `min_vector_score_with_shared_term`. Calibrated on the
    shipped KB with the hashing embedder: every policy query of `eval_queries.yaml` but two
    ("how much is the ONT router?", "pague ayer y sigo sin internet...") keeps a chunk, and
    none of fifteen off-topic questions ("¿cuál es la capital de Francia?", "tell me a joke",
    "cuanto cuesta una pizza") does — cosine alone cannot separate them (an off-topic
    question reaches 0.26, a late-fee question 0.18), a shared term can. Terms are stems
    (see `stemming`), so "pago" shares a term with "pagué"; that did not let any off-topic
    question through, and it made "que tengo que hacer para que me reconecten" pass.
    """

    min_vector_score: float = DEFAULT_MIN_VECTOR_SCORE
    min_vector_score_with_shared_term: float = DEFAULT_MIN_VECTOR_SCORE_WITH_SHARED_TERM

    def admits(self, chunk: ContextCandidate) -> bool:
        score = chunk.vector_score or 0.0
        return (
            chunk.matched_by_text
            or score >= self.min_vector_score
            or (chunk.text_rank is not None and score >= self.min_vector_score_with_shared_term)
        )
