"""``billing-assistant kb ...``: ingest a knowledge base, search it, evaluate retrieval.

:func:`register` adds the ``kb`` group to the ``billing-assistant`` argparse dispatcher; each
sub-command stores its handler as ``args.handler`` (returning the exit code). Every
:class:`RetrievalError` becomes one line on stderr and exit status 2, never a traceback, and
every number is checked for its range as it is read.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from billing_toolkit.assistant.knowledge import EVAL_QUERIES
from billing_toolkit.assistant.retrieval import open_retriever
from billing_toolkit.assistant.retrieval.backends import open_store
from billing_toolkit.assistant.retrieval.dsn import redact_dsn
from billing_toolkit.assistant.retrieval.embedders import (
    DEFAULT_EMBEDDER,
    EMBEDDER_NAMES,
    get_embedder,
)
from billing_toolkit.assistant.retrieval.errors import RetrievalError, StoreError
from billing_toolkit.assistant.retrieval.evaluation import EvaluationReport, evaluate, load_queries
from billing_toolkit.assistant.retrieval.ingest import IngestProgress, ingest_folder
from billing_toolkit.assistant.retrieval.relevance import DEFAULT_MARGIN, DEFAULT_MIN_CHUNKS
from billing_toolkit.assistant.retrieval.retriever import (
    DEFAULT_TOP_K,
    HybridRetriever,
    SearchExplanation,
)
from billing_toolkit.contract.cli import EXIT_USAGE, bounded_float, bounded_int

DSN_ENV = "BILLING_KB_DSN"
MAX_K = 100
"""More chunks than this is no longer an answer's context; the shipped KB has about 100."""
MAX_MARGIN = 2.0
"""Cosines lie in [-1, 1]: a margin of 2 keeps everything."""
Handler = Callable[[argparse.Namespace], int]


def register(subparsers: Any) -> None:
    """Add ``kb ingest``, ``kb search`` and ``kb eval`` to a dispatcher's sub-parsers."""
    kb = subparsers.add_parser("kb", help="knowledge base: ingest, search, evaluate")
    commands = kb.add_subparsers(dest="kb_command", metavar="COMMAND", required=True)

    ingest = commands.add_parser("ingest", help="sync a folder of Markdown into a store")
    ingest.add_argument("path", type=Path, help="folder of *.md documents (es/, en/ subfolders)")
    _add_store_options(ingest, dsn_help=f"store to fill (default: ${DSN_ENV}; required)")
    ingest.set_defaults(handler=_guarded(_ingest))

    search = commands.add_parser("search", help="hybrid search (full-text + vector, RRF, prune)")
    search.add_argument("query", help='the question, e.g. "¿cómo pago?"')
    _add_store_options(
        search, dsn_help=f"store to search (default: ${DSN_ENV}, else the shipped KB in memory)"
    )
    search.add_argument(
        "--top-k",
        type=partial(bounded_int, low=1, high=MAX_K),
        default=DEFAULT_TOP_K,
        help=f"chunks fused, 1-{MAX_K} (default {DEFAULT_TOP_K})",
    )
    search.add_argument(
        "--margin",
        type=partial(bounded_float, low=0, high=MAX_MARGIN),
        default=DEFAULT_MARGIN,
        help=f"prune margin, 0-{MAX_MARGIN:g} (default {DEFAULT_MARGIN})",
    )
    search.add_argument(
        "--min-chunks",
        type=partial(bounded_int, low=0, high=MAX_K),
        default=DEFAULT_MIN_CHUNKS,
        help=f"keep at least, 0-{MAX_K} (default {DEFAULT_MIN_CHUNKS})",
    )
    search.add_argument(
        "--explain", action="store_true", help="show each leg's rank, fused score and prune reason"
    )
    search.set_defaults(handler=_guarded(_search))

    evaluation = commands.add_parser("eval", help="Recall@k and MRR on the labelled query set")
    evaluation.add_argument(
        "--embedder",
        choices=(*EMBEDDER_NAMES, "all"),
        default="all",
        help="embedder(s) to evaluate (default: all)",
    )
    evaluation.add_argument(
        "--k",
        type=partial(bounded_int, low=1, high=MAX_K),
        default=DEFAULT_TOP_K,
        help=f"cut-off, 1-{MAX_K} (default {DEFAULT_TOP_K})",
    )
    evaluation.add_argument(
        "--queries", type=Path, default=EVAL_QUERIES, help="labelled query set (YAML)"
    )
    evaluation.set_defaults(handler=_guarded(_evaluate))


def _add_store_options(parser: argparse.ArgumentParser, *, dsn_help: str) -> None:
    parser.add_argument("--dsn", default=os.environ.get(DSN_ENV), help=dsn_help)
    parser.add_argument(
        "--embedder", choices=EMBEDDER_NAMES, default=DEFAULT_EMBEDDER, help="default: hashing"
    )


def _guarded(handler: Handler) -> Handler:
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except RetrievalError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_USAGE

    return run


def _console() -> Console:
    """Wide output when piped, so ids and tables are not wrapped mid-token."""
    console = Console()
    return console if console.is_terminal else Console(width=200)


def _ingest(args: argparse.Namespace) -> int:
    if not args.dsn:
        raise StoreError(
            f"kb ingest needs --dsn (or ${DSN_ENV}): an in-memory store would vanish on exit"
        )
    store = open_store(args.dsn)
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    tasks: dict[str, Any] = {}

    def progress(event: IngestProgress) -> None:
        """The bar appears with the first event: an ingest refused before it starts leaves
        stderr its one error line."""
        if not tasks:
            bar.start()
        if event.stage not in tasks:
            tasks[event.stage] = bar.add_task(event.stage, total=event.total)
        bar.update(tasks[event.stage], completed=event.done, total=event.total)

    try:
        report = ingest_folder(store, args.path, get_embedder(args.embedder), progress=progress)
    finally:
        if tasks:
            bar.stop()
        store.close()
    rebuilt = " (embedder changed: store rebuilt)" if report.rebuilt else ""
    print(
        f"ingested {report.documents} documents into {redact_dsn(args.dsn)}: {report.chunks} chunks,"
        f" {report.added} added, {report.removed} removed, {report.unchanged} unchanged{rebuilt}"
    )
    return 0


def _open_for_search(args: argparse.Namespace) -> HybridRetriever:
    if args.dsn is None:
        return open_retriever(embedder=args.embedder)
    retriever = open_retriever(args.dsn, embedder=args.embedder, knowledge=None)
    if retriever.store.count() == 0:
        retriever.close()
        raise StoreError(
            f"the knowledge base at {redact_dsn(args.dsn)} is empty; run `kb ingest PATH` first"
        )
    return retriever


def _search(args: argparse.Namespace) -> int:
    with _open_for_search(args) as retriever:
        explanation = retriever.explain(
            args.query, args.top_k, margin=args.margin, min_chunks=args.min_chunks
        )
    console = _console()
    if args.explain:
        _print_explanation(console, explanation)
    else:
        _print_results(console, explanation)
    return 0


def _print_results(console: Console, explanation: SearchExplanation) -> None:
    if not explanation.kept:
        console.print("no chunks found")
    for chunk in explanation.kept:
        console.print(
            f"[bold]{chunk.fused_rank}. {chunk.chunk_id}[/bold]  {' > '.join(chunk.heading_path)}"
            f"  (cosine {chunk.vector_score:.3f}{', full-text match' if chunk.matched_by_text else ''})",
            highlight=False,
        )
        console.print(chunk.text, highlight=False, markup=False)
        console.print()


def _print_explanation(console: Console, explanation: SearchExplanation) -> None:
    terms = explanation.terms
    words = ", ".join("/".join(group) for group in terms.groups)  # a word's stems: cort/cortan
    console.print(
        f"identifiers: {', '.join(terms.identifiers) or '-'}   words: {words or '-'}",
        highlight=False,
        markup=False,
    )
    console.print(
        f"best cosine {explanation.best_score:.3f}, prune cut-off {explanation.cutoff:.3f}",
        highlight=False,
    )
    table = Table(
        "fused", "chunk", "heading", "text rank", "vector rank", "cosine", "RRF", "decision"
    )
    for candidate in explanation.candidates:
        chunk, match = candidate.chunk, candidate.text_match
        text_rank = "-"
        if match is not None and chunk.text_rank is not None:
            found = ", ".join(match.identifiers + match.words)
            text_rank = f"{chunk.text_rank} ({found}{'; hit' if match.is_hit else ''})"
        verdict = "kept" if candidate.decision.kept else "pruned"
        table.add_row(
            str(chunk.fused_rank),
            chunk.chunk_id,
            chunk.heading_path[-1] if chunk.heading_path else "",
            text_rank,
            "-" if chunk.vector_rank is None else str(chunk.vector_rank),
            f"{chunk.vector_score:.3f}",
            f"{chunk.fused_score:.5f}",
            f"{verdict}: {candidate.decision.reason.value}",
        )
    console.print(table)


def _evaluate(args: argparse.Namespace) -> int:
    queries = load_queries(args.queries)
    names = EMBEDDER_NAMES if args.embedder == "all" else (args.embedder,)
    reports = []
    for name in names:
        with open_retriever(embedder=name) as retriever:
            reports.append(evaluate(retriever, queries, k=args.k))
    _print_reports(_console(), reports, len(queries))
    return 0


def _print_reports(console: Console, reports: list[EvaluationReport], count: int) -> None:
    table = Table(title=f"Retrieval on {count} labelled queries")
    for column in ("embedder", "mode", f"Recall@{reports[0].k}", f"MRR@{reports[0].k}"):
        table.add_column(column)
    for report in reports:
        for score in report.scores:
            table.add_row(report.embedder, score.mode, f"{score.recall:.3f}", f"{score.mrr:.3f}")
    console.print(table)
    for report in reports:
        console.print(
            f"{report.embedder}: pruning kept {report.kept_tokens} of {report.fused_tokens}"
            f" approximate tokens, saving {report.tokens_saved}"
            f" ({report.tokens_saved_ratio:.0%}) over {report.queries} queries",
            highlight=False,
        )
