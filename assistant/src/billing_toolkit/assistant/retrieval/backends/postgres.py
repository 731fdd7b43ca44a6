"""Production backend: PostgreSQL with pgvector cosine and a GIN-indexed ``tsvector``.

The ``tsvector`` is built with ``array_to_tsvector`` from the analyzer's terms, and queried
one term at a time with a literal ``'term'::tsquery``: no text-search parser runs on either
side. That is deliberate: ``to_tsvector``/``plainto_tsquery`` would split ``INV-2026-004281``
into ``inv``, ``-2026``, ``-004281`` and ``J-12345678-9`` into three tokens, and
``plainto_tsquery`` ANDs every word of a question. The ``simple`` configuration keeps the
case folding but not the identifiers, so it is not enough on its own.

The vector leg uses an HNSW index (``vector_cosine_ops``, built by :meth:`build_indexes`)
searched with ``hnsw.ef_search`` = :data:`EF_SEARCH`: the exact scan it replaces cost ~270 ms
per query at 10k chunks (every row's 2 kB vector read and compared). HNSW is approximate. On the
shipped knowledge base (90 chunks; the parity tests) it returns the exact neighbours, so both
backends rank identically. On the benchmark's synthetic corpus, bags of random words whose
vectors are all nearly equidistant (the worst case for any ANN index), recall@50 against the
exact answer with ef_search 100 is 0.88 at 1k, ~0.41 at 10k and ~0.11 at 100k (at 10k: 0.57
with 200, 0.70 with 400); a real corpus, whose vectors cluster by topic, fares better, but
parity with the embedded backend is only guaranteed where the search is exact. The text leg
is exact either way, so an identifier is always found.

The text leg returns raw postings (keys and lengths, aggregated into arrays per term) and is
ranked by the shared numpy code of :mod:`billing_toolkit.assistant.retrieval.text_ranking`:
letting Postgres rank with ``ts_rank_cd`` would break the rank-for-rank parity with the
embedded backend.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

import numpy as np

from billing_toolkit.assistant.retrieval.analysis import index_entry
from billing_toolkit.assistant.retrieval.backends.base import (
    current_embedder,
    nearest_key,
    rounded,
    store_metadata,
)
from billing_toolkit.assistant.retrieval.dsn import redact_dsn
from billing_toolkit.assistant.retrieval.embedders.base import Vectors
from billing_toolkit.assistant.retrieval.errors import StoreError
from billing_toolkit.assistant.retrieval.records import Chunk
from billing_toolkit.assistant.retrieval.text_ranking import CorpusStats, Keys, TermPostings

SCHEMA_VERSION = "2"
"""Bumped when ``kb_chunks`` changes shape; a store of another version reports no embedder,
so the next ingestion rebuilds it (2: integer chunk keys and the HNSW index)."""

EF_SEARCH = 100
"""HNSW candidate-list size per query. pgvector's default, 40, is fewer rows than the 60 the
vector leg asks for (50 candidates and the tie slack), and a scan returns at most ef_search
rows. Larger is closer to exact and slower (see the module docstring for measured recall)."""

BUILD_MEMORY = "512MB"
"""Sized to build the graph of ~100k 512-dimension vectors in memory; pgvector warns and
slows down several times when the graph does not fit."""

TIE_SLACK = 10
"""Extra neighbours fetched past ``limit``: the index orders by raw distance, the contract is
rounded cosine then chunk id, so chunks tied at the cut are re-ordered here."""


class PostgresStore:
    """A knowledge base in the ``kb_chunks`` table of one Postgres database."""

    def __init__(self, uri: str) -> None:
        try:
            import psycopg
            from pgvector.psycopg import register_vector
        except ImportError as exc:  # pragma: no cover - both are core dependencies
            raise StoreError(f"the PostgreSQL backend needs {exc.name}") from None
        try:
            self._db: Any = psycopg.connect(uri, autocommit=True)
        except psycopg.Error as exc:
            raise StoreError(f"cannot connect to {redact_dsn(uri)}: {_first_line(exc)}") from None
        try:
            self._db.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except psycopg.Error as exc:
            self._db.close()
            raise StoreError(
                f"pgvector is not available in {redact_dsn(uri)}: {_first_line(exc)}"
            ) from None
        register_vector(self._db)
        self._db.execute("CREATE TABLE IF NOT EXISTS kb_meta (key text PRIMARY KEY, value text)")
        self._db.execute(f"SET hnsw.ef_search = {EF_SEARCH}")
        self._ef_search = EF_SEARCH

    def embedder_identity(self) -> str | None:
        rows = dict(self._db.execute("SELECT key, value FROM kb_meta").fetchall())
        if rows.get("schema") != SCHEMA_VERSION or not self._has_chunks_table():
            return None
        return current_embedder(rows)

    def _has_chunks_table(self) -> bool:
        return self._db.execute("SELECT to_regclass('kb_chunks') IS NOT NULL").fetchone()[0]

    def reset(self, embedder_identity: str, dimension: int) -> None:
        with self._db.transaction():
            self._db.execute("DROP TABLE IF EXISTS kb_chunks")
            self._db.execute(
                f"""CREATE TABLE kb_chunks (
                    key bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    chunk_id text NOT NULL UNIQUE,
                    document text NOT NULL,
                    heading_path jsonb NOT NULL,
                    language text NOT NULL,
                    text text NOT NULL,
                    terms tsvector NOT NULL,
                    term_count integer NOT NULL,
                    embedding vector({int(dimension)}) NOT NULL)"""
            )
            self._db.execute("CREATE INDEX kb_chunks_terms ON kb_chunks USING gin (terms)")
            for key, value in (
                *store_metadata(embedder_identity, dimension),
                ("schema", SCHEMA_VERSION),
            ):
                self._db.execute(
                    "INSERT INTO kb_meta (key, value) VALUES (%s, %s)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )
            self._refresh_stats(self._db)

    def chunk_ids(self) -> set[str]:
        if not self._has_chunks_table():
            return set()
        return {row[0] for row in self._db.execute("SELECT chunk_id FROM kb_chunks")}

    def count(self) -> int:
        return self.corpus_stats().chunks

    def add(self, chunks: Sequence[Chunk], vectors: Vectors) -> None:
        """Bulk-load through ``COPY`` into a temporary table, then build the tsvectors in SQL."""
        with self._db.transaction(), self._db.cursor() as cursor:
            cursor.execute(
                "CREATE TEMP TABLE IF NOT EXISTS kb_chunks_load (chunk_id text, document text,"
                " heading_path jsonb, language text, text text, term_list text[],"
                " term_count integer, embedding vector) ON COMMIT DELETE ROWS"
            )
            with cursor.copy(
                "COPY kb_chunks_load (chunk_id, document, heading_path, language, text,"
                " term_list, term_count, embedding) FROM STDIN"
            ) as copy:
                for chunk, vector in zip(chunks, vectors, strict=True):
                    entry = index_entry(chunk.searchable_text)
                    copy.write_row(
                        (
                            chunk.chunk_id,
                            chunk.document,
                            json.dumps(chunk.heading_path, ensure_ascii=False),
                            chunk.language,
                            chunk.text,
                            list(entry.terms),
                            entry.length,
                            np.asarray(vector, dtype=np.float32),
                        )
                    )
            cursor.execute(
                "INSERT INTO kb_chunks (chunk_id, document, heading_path, language, text, terms,"
                " term_count, embedding) SELECT chunk_id, document, heading_path, language, text,"
                " array_to_tsvector(term_list), term_count, embedding"
                " FROM kb_chunks_load"
            )
            self._refresh_stats(cursor)

    def build_indexes(self) -> None:
        """Create the HNSW index if it is missing (after :meth:`reset` and the first load).

        Built once over the loaded rows, in memory, it takes a fraction of the time that
        inserting the same rows into an existing index does (10k chunks: ~105 s row by row on
        the benchmark machine); later additions are then maintained by Postgres row by row.
        Until it exists the vector leg is an exact scan, correct and slower.
        """
        with self._db.transaction():
            self._db.execute(f"SET LOCAL maintenance_work_mem = '{BUILD_MEMORY}'")
            self._db.execute(
                "CREATE INDEX IF NOT EXISTS kb_chunks_embedding ON kb_chunks"
                " USING hnsw (embedding vector_cosine_ops)"
            )

    def remove(self, chunk_ids: Collection[str]) -> None:
        with self._db.transaction(), self._db.cursor() as cursor:
            cursor.execute("DELETE FROM kb_chunks WHERE chunk_id = ANY(%s)", (list(chunk_ids),))
            self._refresh_stats(cursor)

    @staticmethod
    def _refresh_stats(executor: Any) -> None:
        """Keep count and term total in ``kb_meta``, updated in the writing transaction, so a
        query reads one row instead of aggregating the whole table."""
        executor.execute(
            "INSERT INTO kb_meta (key, value) SELECT 'stats', count(*) || ' ' ||"
            " coalesce(sum(term_count), 0) FROM kb_chunks"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        )

    def corpus_stats(self) -> CorpusStats:
        row = self._db.execute("SELECT value FROM kb_meta WHERE key = 'stats'").fetchone()
        count, total = row[0].split() if row else (0, 0)
        return CorpusStats.from_totals(int(count), int(total))

    def postings(self, terms: Sequence[str]) -> dict[str, TermPostings]:
        """One GIN lookup per term, each term's keys and lengths aggregated into two arrays
        (binary transfer) rather than one row per posting."""
        rows = self._db.execute(
            "SELECT q.term, array_agg(c.key), array_agg(c.term_count)"
            " FROM unnest(%s::text[]) AS q(term)"
            " JOIN kb_chunks c ON c.terms @@ quote_literal(q.term)::tsquery GROUP BY q.term",
            (list(terms),),
            binary=True,
        )
        return {term: TermPostings.of(keys, lengths) for term, keys, lengths in rows}

    def chunk_ids_of(self, keys: Keys) -> list[str]:
        rows = self._db.execute(
            "SELECT key, chunk_id FROM kb_chunks WHERE key = ANY(%s)", (keys.tolist(),)
        )
        id_of = dict(rows.fetchall())
        return [id_of[key] for key in keys.tolist()]

    def nearest(self, vector: Vectors, limit: int) -> list[tuple[str, float]]:
        if limit < 1 or not self._has_chunks_table():
            return []
        query = np.asarray(vector, dtype=np.float32)
        self._widen_search(limit + TIE_SLACK)
        rows = self._db.execute(
            "SELECT chunk_id, 1 - (embedding <=> %s) FROM kb_chunks"
            " ORDER BY embedding <=> %s LIMIT %s",
            (query, query, limit + TIE_SLACK),
        ).fetchall()
        return sorted(((chunk_id, rounded(score)) for chunk_id, score in rows), key=nearest_key)[
            :limit
        ]

    def _widen_search(self, wanted: int) -> None:
        """HNSW returns at most ef_search rows: raise it for a caller asking for more."""
        if wanted > self._ef_search:
            self._db.execute(f"SET hnsw.ef_search = {int(wanted)}")
            self._ef_search = wanted

    def similarities(self, vector: Vectors, chunk_ids: Collection[str]) -> dict[str, float]:
        rows = self._db.execute(
            "SELECT chunk_id, 1 - (embedding <=> %s) FROM kb_chunks WHERE chunk_id = ANY(%s)",
            (np.asarray(vector, dtype=np.float32), list(chunk_ids)),
        )
        return {chunk_id: rounded(score) for chunk_id, score in rows}

    def fetch(self, chunk_ids: Collection[str]) -> dict[str, Chunk]:
        rows = self._db.execute(
            "SELECT chunk_id, document, heading_path, language, text FROM kb_chunks"
            " WHERE chunk_id = ANY(%s)",
            (list(chunk_ids),),
        )
        return {row[0]: Chunk(row[0], row[1], tuple(row[2]), row[3], row[4]) for row in rows}

    def close(self) -> None:
        self._db.close()


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
