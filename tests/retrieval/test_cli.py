"""``billing-assistant kb``: what a user sees, and one-line errors with a non-zero exit."""

from __future__ import annotations

from pathlib import Path

import pytest

from billing_toolkit.assistant.cli import main
from billing_toolkit.assistant.retrieval import SHIPPED_KNOWLEDGE


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_ingest_then_search_a_file_store(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    dsn = f"sqlite:///{tmp_path}/kb.sqlite3"
    code, out, _ = run(capsys, "kb", "ingest", str(SHIPPED_KNOWLEDGE), "--dsn", dsn)
    assert code == 0 and "20 documents" in out and "0 removed" in out
    code, out, _ = run(capsys, "kb", "ingest", str(SHIPPED_KNOWLEDGE), "--dsn", dsn)
    assert code == 0 and "0 added" in out
    code, out, _ = run(capsys, "kb", "search", "INV-2026-000123", "--dsn", dsn)
    assert code == 0 and "INV-2026-000123" in out and "full-text match" in out


def test_explain_shows_each_leg_and_the_prune_decision(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "kb", "search", "¿cuánto cuesta la reconexión?", "--explain")
    assert code == 0
    assert "prune cut-off" in out and "words: cuest/cuesta, reconexion" in out
    assert "kept: within margin" in out and "pruned: below margin" in out
    assert "es/suspension-y-reconexion.md#" in out


def test_eval_prints_recall_and_mrr_per_mode(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "kb", "eval", "--embedder", "hashing", "--k", "6")
    assert code == 0
    for label in (
        "Recall@6",
        "MRR@6",
        "fts",
        "vector",
        "fused",
        "fused+pruned",
        "approximate tokens",
    ):
        assert label in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["kb", "ingest", "/no/such/folder", "--dsn", "sqlite://"],
            "knowledge-base folder not found",
        ),
        (["kb", "ingest", "."], "needs --dsn"),
        (["kb", "search", "   "], "the query is empty"),
        (["kb", "search", "pago", "--top-k", "0"], "argument --top-k: 0 is not between 1 and 100"),
        (
            ["kb", "search", "pago", "--margin", "-5"],
            "argument --margin: -5 is not between 0 and 2",
        ),
        (
            ["kb", "search", "pago", "--min-chunks", "-1"],
            "argument --min-chunks: -1 is not between 0 and 100",
        ),
        (["kb", "search", "pago", "--dsn", "mysql://x"], "unsupported DSN scheme"),
        (["kb", "search", "pago", "--dsn", "sqlite://"], "is empty; run `kb ingest"),
    ],
)
def test_errors_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    monkeypatch.delenv("BILLING_KB_DSN", raising=False)
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and "error: " in err and message in err
    assert "Traceback" not in err
