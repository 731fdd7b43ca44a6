"""Relevance: pruning keeps when in doubt (full-text hits survive, min_chunks is back-filled
in order), and the context floor tells a question the KB answers from one it does not."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import yaml

from billing_toolkit.assistant.knowledge import EVAL_QUERIES
from billing_toolkit.assistant.retrieval import HybridRetriever
from billing_toolkit.assistant.retrieval.relevance import ContextFloor, PruneReason, decide


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


@dataclass(frozen=True)
class Retrieved:
    vector_score: float | None
    matched_by_text: bool = False
    text_rank: int | None = None


@pytest.mark.parametrize(
    ("chunk", "admitted"),
    [
        (Retrieved(0.05, matched_by_text=True), True),  # full-text proved it
        (Retrieved(0.30), True),  # close enough on its own
        (Retrieved(0.29), False),
        (Retrieved(0.15, text_rank=3), True),  # shares a term, fair cosine
        (Retrieved(0.14, text_rank=3), False),
        (Retrieved(None, text_rank=1), False),  # no cosine reads as 0
    ],
)
def test_the_context_floor(chunk: Retrieved, admitted: bool) -> None:
    assert ContextFloor().admits(chunk) is admitted


def test_the_context_floor_is_configurable() -> None:
    assert ContextFloor(min_vector_score=0.2).admits(Retrieved(0.25))


OFF_TOPIC = (
    "¿cuál es la capital de Francia?",
    "tell me a joke",
    "¿quién ganó el partido?",
    "receta de arepas",
    "who won the world cup",
    "what's the weather like",
    "cuéntame un chiste",
    "¿cuántos años tiene el presidente?",
    "recommend a good movie",
    "¿cómo se hace una torta?",
    "what is the meaning of life",
    "dime un poema",
    # stem bait: "cuesta", "pago", "cargar" share a stem with billing words
    "cuanto cuesta una pizza",
    "pago de la luz del vecino",
    "cargar el celular",
)


def test_the_floor_is_calibrated_on_the_shipped_kb(kb: HybridRetriever) -> None:
    """The calibration `ContextFloor` documents: every labelled policy query but two keeps a
    chunk, and no off-topic question does — stemming included, which widens what shares a
    term. The two misses reach neither floor with the hashing embedder: "ONT router" and
    "pague ayer y sigo sin internet" (its chunk says "pagaste", "sigues", "sin servicio": the
    stems meet, but not every word, and the lexical cosine stays under 0.15)."""
    queries = yaml.safe_load(EVAL_QUERIES.read_text(encoding="utf-8"))["queries"]
    floor = ContextFloor()

    def has_context(question: str) -> bool:
        return any(floor.admits(c) for c in kb.search(question))

    without = [q["query"] for q in queries if q["kind"] == "policy" and not has_context(q["query"])]
    assert without == [
        "how much is the ONT router?",
        "pague ayer y sigo sin internet, no me han reactivado",
    ]
    assert [q for q in OFF_TOPIC if has_context(q)] == []


def test_an_inflected_question_finds_its_section_and_passes_the_floor(kb: HybridRetriever) -> None:
    """The probe of issue #15: "reconecten" never met "reconectar", the full-text leg found
    nothing and the turn escalated NO_CONTEXT although the KB says how to reconnect."""
    explanation = kb.explain("que tengo que hacer para que me reconecten")
    best = kb.store.fetch(explanation.text_ranking[:1])[explanation.text_ranking[0]]
    assert best.heading_path[-1] == "Cómo reconectar"
    assert any(ContextFloor().admits(c) for c in explanation.kept)
