"""Query latency of hybrid retrieval at 1k, 10k and 100k synthetic chunks, per backend.

For each backend and corpus size it times ``HybridRetriever.search`` (analyse the query,
embed it, full-text leg, vector leg, RRF, prune, fetch the chunks) and, in the same run and
on the same data, a *baseline*: the two raw index lookups alone, with no ranking, fusion,
pruning or fetching (SQLite: one FTS5 ``MATCH`` with the query terms OR-ed plus a numpy
matrix-vector product and ``argpartition``; Postgres: one GIN ``@@`` query plus ``ORDER BY
embedding <=> q LIMIT 50`` through the HNSW index). The ratio says what the pipeline costs on
top of the indexes it cannot avoid. ``vector recall@50`` is the share of the exact 50 nearest
chunks the store's vector leg returned (1 by construction on SQLite; HNSW on Postgres).

Synthetic chunks are drawn (seeded) from the shipped knowledge base's vocabulary with a
Zipf-like skew, sprinkled with invoice numbers, RIFs and cédulas; queries are the labelled
evaluation queries plus identifier look-ups. The embedder is the default hashing one.

    .venv/bin/python benchmarks/retrieval_latency.py                  # 1k, 10k: ~1-2 minutes
    .venv/bin/python benchmarks/retrieval_latency.py --sizes 100000 --backends sqlite  # ~3 min
    .venv/bin/python benchmarks/retrieval_latency.py --sizes 1000,10000,100000   # ~10 minutes

The 100k Postgres row is the slow part of the last command: loading 100k chunks (COPY, GIN
maintenance) and building the HNSW graph take ~6 minutes on a shared two-core machine, on top
of ~1 minute to embed the corpus. Figures on a shared machine are noisy; compare the ratio.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import psycopg
from psycopg import sql
from rich.console import Console
from rich.table import Table

from billing_toolkit.assistant.knowledge import EVAL_QUERIES
from billing_toolkit.assistant.retrieval import SHIPPED_KNOWLEDGE, HybridRetriever, open_store
from billing_toolkit.assistant.retrieval.analysis import analyze_query, content_words
from billing_toolkit.assistant.retrieval.backends.sqlite import fts_phrase
from billing_toolkit.assistant.retrieval.embedders import HashingEmbedder
from billing_toolkit.assistant.retrieval.evaluation import load_queries
from billing_toolkit.assistant.retrieval.ingest import read_folder
from billing_toolkit.assistant.retrieval.records import Chunk

WORDS_PER_CHUNK = (40, 90)
BATCH = 2000
RECALL_QUERIES = 50


def vocabulary() -> list[str]:
    words = sorted({w for c in read_folder(SHIPPED_KNOWLEDGE) for w in content_words(c.text)})
    return [w for w in words if not w[0].isdigit()]


def synthetic_chunks(size: int, seed: int) -> list[Chunk]:
    rng = random.Random(seed)
    words = vocabulary()
    weights = [1.0 / (rank + 1) for rank in range(len(words))]
    rng.shuffle(words)
    chunks = []
    for index in range(size):
        length = rng.randint(*WORDS_PER_CHUNK)
        body = rng.choices(words, weights=weights, k=length)
        if index % 7 == 0:
            body.insert(rng.randrange(length), f"INV-2026-{rng.randrange(500000):06d}")
        if index % 11 == 0:
            body.insert(
                rng.randrange(length), f"J-{rng.randrange(10**7, 10**8)}-{rng.randrange(10)}"
            )
        if index % 13 == 0:
            body.insert(rng.randrange(length), f"V-{rng.randrange(10**6, 10**8)}")
        document = f"synthetic/doc-{index // 20:05d}.md"
        heading = (f"Documento {index // 20}", f"Sección {index % 20}")
        chunks.append(Chunk(f"{document}#{index:012x}", document, heading, "es", " ".join(body)))
    return chunks


def benchmark_queries(chunks: Sequence[Chunk], count: int, seed: int) -> list[str]:
    rng = random.Random(seed + 1)
    natural = [q.query for q in load_queries(EVAL_QUERIES)]
    identifiers = [
        t for c in chunks[:2000] for t in c.text.split() if t.startswith(("INV-", "J-", "V-"))
    ]
    pool = natural + [f"¿qué es {identifier}?" for identifier in identifiers[:40]]
    return [rng.choice(pool) for _ in range(count)]


def timed(function: Callable[[str], object], queries: Sequence[str]) -> tuple[float, float]:
    for query in queries[:10]:
        function(query)
    samples = []
    for query in queries:
        start = time.perf_counter()
        function(query)
        samples.append((time.perf_counter() - start) * 1000.0)
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49], cuts[94]


def vector_recall(
    retriever: HybridRetriever,
    chunks: Sequence[Chunk],
    vectors: np.ndarray,
    queries: Sequence[str],
    depth: int = 50,
) -> float:
    """Share of the exact ``depth`` nearest chunks that the store's vector leg returns.

    1.00 on SQLite (brute force); below 1 on Postgres it measures what HNSW gives up.
    """
    found = 0
    for query in queries:
        vector = retriever.embedder.embed([query])[0]
        exact = {chunks[i].chunk_id for i in np.argsort(-(vectors @ vector), kind="stable")[:depth]}
        found += len(exact & {chunk_id for chunk_id, _ in retriever.store.nearest(vector, depth)})
    return found / (depth * len(queries))


def sqlite_baseline(path: Path, embedder: HashingEmbedder) -> Callable[[str], object]:
    db = sqlite3.connect(str(path))
    rows = db.execute("SELECT embedding FROM kb_chunks ORDER BY rowid").fetchall()
    matrix = np.frombuffer(b"".join(r[0] for r in rows), dtype=np.float32).reshape(len(rows), -1)

    def lookup(query: str) -> object:
        terms = analyze_query(query).all_terms
        vector = embedder.embed([query])[0]
        hits = (
            db.execute(
                "SELECT rowid FROM kb_terms WHERE kb_terms MATCH ?",
                (" OR ".join(fts_phrase(t) for t in terms),),
            ).fetchall()
            if terms
            else []
        )
        scores = np.einsum("ij,j->i", matrix, vector)
        return hits, np.argpartition(scores, -50)[-50:]

    return lookup


def postgres_baseline(dsn: str, embedder: HashingEmbedder) -> Callable[[str], object]:
    from pgvector.psycopg import register_vector

    db = psycopg.connect(dsn, autocommit=True)
    register_vector(db)

    def lookup(query: str) -> object:
        terms = analyze_query(query).all_terms
        vector = embedder.embed([query])[0]
        tsquery = " | ".join("'" + t.replace("'", "''") + "'" for t in terms)
        hits = (
            db.execute(
                "SELECT chunk_id FROM kb_chunks WHERE terms @@ %s::tsquery", (tsquery,)
            ).fetchall()
            if terms
            else []
        )
        nearest = db.execute(
            "SELECT chunk_id FROM kb_chunks ORDER BY embedding <=> %s LIMIT 50", (vector,)
        ).fetchall()
        return hits, nearest

    return lookup


@contextmanager
def postgres_dsn(workdir: Path) -> Iterator[str]:
    from pgserver.postgres_server import get_server

    server = get_server(workdir / "pgdata", cleanup_mode="delete")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


def load(
    dsn: str, chunks: Sequence[Chunk], vectors: np.ndarray, embedder: HashingEmbedder
) -> float:
    start = time.perf_counter()
    store = open_store(dsn)
    store.reset(embedder.identity, embedder.dimension)
    for offset in range(0, len(chunks), BATCH):
        store.add(chunks[offset : offset + BATCH], vectors[offset : offset + BATCH])
    store.build_indexes()
    store.close()
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--sizes", default="1000,10000", help="comma-separated chunk counts (add 100000: minutes)"
    )
    parser.add_argument("--backends", default="sqlite,postgres", help="sqlite and/or postgres")
    parser.add_argument("--queries", type=int, default=200, help="timed queries per measurement")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    backends = [b.strip() for b in args.backends.split(",")]
    unknown = set(backends) - {"sqlite", "postgres"}
    if unknown or not sizes or min(sizes) < 100:
        parser.error(f"bad --backends {sorted(unknown)} or --sizes (each at least 100)")

    console = Console(width=150)
    embedder = HashingEmbedder()
    table = Table(title="Hybrid retrieval latency (hashing embedder, top_k=6, 50 candidates/leg)")
    for column in (
        "backend",
        "chunks",
        "load s",
        "search p50 ms",
        "search p95 ms",
        "baseline p50 ms",
        "baseline p95 ms",
        "p95 ratio",
        "vector recall@50",
    ):
        table.add_column(column, justify="right")

    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        with postgres_dsn(workdir) if "postgres" in backends else _nothing() as pg_uri:
            for size in sizes:
                chunks = synthetic_chunks(size, args.seed)
                start = time.perf_counter()
                vectors = embedder.embed([c.searchable_text for c in chunks])
                console.print(f"{size} chunks embedded in {time.perf_counter() - start:.1f} s")
                queries = benchmark_queries(chunks, args.queries, args.seed)
                for backend in backends:
                    if backend == "sqlite":
                        path = workdir / f"kb-{size}.sqlite3"
                        dsn, baseline = f"sqlite:///{path}", None
                    else:
                        name = f"kb_{size}"
                        with psycopg.connect(pg_uri, autocommit=True) as admin:
                            admin.execute(
                                sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
                            )
                        dsn = pg_uri.replace("/postgres?", f"/{name}?")
                    seconds = load(dsn, chunks, vectors, embedder)
                    baseline = (
                        sqlite_baseline(path, embedder)
                        if backend == "sqlite"
                        else postgres_baseline(dsn, embedder)
                    )
                    with HybridRetriever(open_store(dsn), embedder) as retriever:
                        search_p50, search_p95 = timed(retriever.search, queries)
                        recall = vector_recall(retriever, chunks, vectors, queries[:RECALL_QUERIES])
                    base_p50, base_p95 = timed(baseline, queries)
                    table.add_row(
                        backend,
                        f"{size:,}",
                        f"{seconds:.1f}",
                        f"{search_p50:.2f}",
                        f"{search_p95:.2f}",
                        f"{base_p50:.2f}",
                        f"{base_p95:.2f}",
                        f"{search_p95 / base_p95:.2f}x",
                        f"{recall:.3f}",
                    )
                    console.print(f"{backend} {size}: p95 {search_p95:.2f} ms")
    console.print(table)
    return 0


@contextmanager
def _nothing() -> Iterator[str]:
    yield ""


if __name__ == "__main__":
    raise SystemExit(main())
