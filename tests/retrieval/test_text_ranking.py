"""One ranking function for every backend: identifiers first, then BM25, ties on id."""

from __future__ import annotations

from assistant.retrieval.analysis import QueryTerms
from assistant.retrieval.text_ranking import CorpusStats, rank_text_matches

STATS = CorpusStats(chunks=100, average_terms=20.0)


def test_identifier_matches_rank_before_word_matches() -> None:
    query = QueryTerms(("inv-2026-004281",), ("late", "fee"))
    postings = {
        "inv-2026-004281": {"z-invoice": 40},
        "late": {"a-fees": 10},
        "fee": {"a-fees": 10},
    }
    ranked = rank_text_matches(query, postings, STATS)
    assert [m.chunk_id for m in ranked] == ["z-invoice", "a-fees"]


def test_a_hit_needs_an_identifier_or_every_word() -> None:
    query = QueryTerms((), ("late", "fee"))
    postings = {"late": {"both": 20, "one": 20}, "fee": {"both": 20}}
    ranked = {m.chunk_id: m for m in rank_text_matches(query, postings, STATS)}
    assert ranked["both"].is_hit
    assert not ranked["one"].is_hit


def test_shorter_chunks_win_equal_matches_and_ties_break_on_id() -> None:
    query = QueryTerms((), ("zelle",))
    postings = {"zelle": {"long": 60, "short": 8, "also-short": 8}}
    ranked = [m.chunk_id for m in rank_text_matches(query, postings, STATS)]
    assert ranked == ["also-short", "short", "long"]


def test_rare_terms_weigh_more_than_common_ones() -> None:
    query = QueryTerms((), ("pago", "zelle"))
    common = {f"c{i}": 20 for i in range(60)}
    postings = {"pago": common, "zelle": {"z": 20}}
    ranked = rank_text_matches(query, postings, STATS)
    assert ranked[0].chunk_id == "z"
