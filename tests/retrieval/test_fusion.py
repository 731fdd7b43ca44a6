"""Reciprocal Rank Fusion with k = 60 and deterministic ties."""

from __future__ import annotations

import pytest

from billing_toolkit.assistant.retrieval.fusion import reciprocal_rank_fusion


def test_scores_are_the_sum_of_reciprocal_ranks() -> None:
    fused = dict(reciprocal_rank_fusion([["a", "b"], ["b", "c"]]))
    assert fused["a"] == pytest.approx(1 / 61)
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert fused["c"] == pytest.approx(1 / 62)


def test_agreement_between_legs_beats_one_first_place() -> None:
    order = [cid for cid, _ in reciprocal_rank_fusion([["solo", "both"], ["x", "both"]])]
    assert order[0] == "both"


def test_ties_break_on_chunk_id_whatever_the_input_order() -> None:
    forward = reciprocal_rank_fusion([["b"], ["a"]])
    backward = reciprocal_rank_fusion([["a"], ["b"]])
    assert [cid for cid, _ in forward] == [cid for cid, _ in backward] == ["a", "b"]


def test_k_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        reciprocal_rank_fusion([["a"]], k=0)
