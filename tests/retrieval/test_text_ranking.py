"""One ranking function for every backend: identifiers first, then BM25, ties on id."""

from __future__ import annotations

from collections.abc import Mapping

from billing_toolkit.assistant.retrieval.analysis import QueryTerms
from billing_toolkit.assistant.retrieval.text_ranking import (
    CorpusStats,
    Keys,
    TermPostings,
    TextMatch,
    rank_text_matches,
)

STATS = CorpusStats(chunks=100, average_terms=20.0)


def rank(
    query: QueryTerms, chunks_by_term: Mapping[str, Mapping[str, int]], limit: int | None = None
) -> list[TextMatch]:
    """Rank with postings given as ``term → {chunk id: length}``; keys are list positions."""
    ids = sorted({chunk_id for chunks in chunks_by_term.values() for chunk_id in chunks})
    key_of = {chunk_id: key for key, chunk_id in enumerate(ids)}
    postings = {
        term: TermPostings.of([key_of[c] for c in chunks], list(chunks.values()))
        for term, chunks in chunks_by_term.items()
    }

    def chunk_ids_of(keys: Keys) -> list[str]:
        return [ids[key] for key in keys.tolist()]

    return rank_text_matches(query, postings, STATS, chunk_ids_of, limit=limit)


def test_identifier_matches_rank_before_word_matches() -> None:
    query = QueryTerms(("inv-2026-004281",), ("late", "fee"))
    postings = {
        "inv-2026-004281": {"z-invoice": 40},
        "late": {"a-fees": 10},
        "fee": {"a-fees": 10},
    }
    assert [m.chunk_id for m in rank(query, postings)] == ["z-invoice", "a-fees"]


def test_a_hit_needs_an_identifier_or_every_word() -> None:
    query = QueryTerms((), ("late", "fee"))
    postings = {"late": {"both": 20, "one": 20}, "fee": {"both": 20}}
    ranked = {m.chunk_id: m for m in rank(query, postings)}
    assert ranked["both"].is_hit and ranked["both"].words == ("late", "fee")
    assert not ranked["one"].is_hit and ranked["one"].words == ("late",)


def test_shorter_chunks_win_equal_matches_and_ties_break_on_id() -> None:
    query = QueryTerms((), ("zelle",))
    postings = {"zelle": {"long": 60, "short": 8, "also-short": 8}}
    assert [m.chunk_id for m in rank(query, postings)] == ["also-short", "short", "long"]


def test_rare_terms_weigh_more_than_common_ones() -> None:
    query = QueryTerms((), ("pago", "zelle"))
    common = {f"c{i}": 20 for i in range(60)}
    postings = {"pago": common, "zelle": {"z": 20}}
    assert rank(query, postings)[0].chunk_id == "z"


def test_the_limit_cuts_ties_on_chunk_id_not_on_store_order() -> None:
    """Keys are assigned in reverse id order here, as a store's insertion order might be."""
    query = QueryTerms((), ("pago",))
    ids = [f"c{i:02d}" for i in range(30)]
    postings = {"pago": TermPostings.of(range(30), [20] * 30)}

    def chunk_ids_of(keys: Keys) -> list[str]:
        return [ids[29 - key] for key in keys.tolist()]

    ranked = rank_text_matches(query, postings, STATS, chunk_ids_of, limit=5)
    assert [m.chunk_id for m in ranked] == ids[:5]


def test_the_limit_keeps_the_best_whatever_their_keys() -> None:
    query = QueryTerms(("j-12345678-9",), ("pago",))
    common = {f"c{i:02d}": 20 for i in range(60)}
    postings = {"pago": common | {"short": 5}, "j-12345678-9": {"c50": 20}}
    ranked = rank(query, postings, limit=3)
    assert [m.chunk_id for m in ranked] == ["c50", "short", "c00"]
    assert ranked[0].identifiers == ("j-12345678-9",)


def test_no_postings_rank_nothing() -> None:
    assert rank(QueryTerms((), ("zelle",)), {}) == []
