"""Pruning keeps when in doubt: full-text hits survive, min_chunks is back-filled in order."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from assistant.retrieval.prune import PruneReason, decide


@dataclass(frozen=True)
class C:
    vector_score: float
    matched_by_text: bool = False


def kept(candidates: list[C], **options: float) -> list[bool]:
    return [d.kept for d in decide(candidates, **options).decisions]  # type: ignore[arg-type]


def test_chunks_far_below_the_best_of_this_turn_are_pruned() -> None:
    outcome = decide([C(0.80), C(0.70), C(0.50), C(0.40)])
    assert [d.kept for d in outcome.decisions] == [True, True, False, False]
    assert outcome.cutoff == pytest.approx(0.68)


def test_the_margin_is_relative_to_the_turn_not_a_fixed_threshold() -> None:
    assert kept([C(0.42), C(0.35), C(0.31), C(0.10)]) == [True, True, True, False]


def test_a_full_text_hit_always_survives() -> None:
    outcome = decide([C(0.9), C(0.85), C(0.05, matched_by_text=True)])
    assert outcome.decisions[2].kept
    assert outcome.decisions[2].reason is PruneReason.TEXT_MATCH


def test_min_chunks_back_fills_in_fused_order() -> None:
    outcome = decide([C(0.9), C(0.2), C(0.5), C(0.1)], min_chunks=3)
    assert [d.kept for d in outcome.decisions] == [True, True, True, False]
    assert outcome.decisions[1].reason is PruneReason.BACKFILL


def test_few_candidates_are_all_kept() -> None:
    assert kept([C(0.9), C(0.0)], min_chunks=2) == [True, True]


def test_bad_parameters_are_rejected() -> None:
    with pytest.raises(ValueError, match="margin"):
        decide([C(0.5)], margin=-0.1)
    with pytest.raises(ValueError, match="min_chunks"):
        decide([C(0.5)], min_chunks=-1)
