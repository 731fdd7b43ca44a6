"""Embedded backend: SQLite FTS5 for terms, vectors in the same file, cosine in numpy.

No server to run, which is why it is the default. The vectors live in a BLOB column; after a
write the next query loads a :class:`Snapshot` (rowids, chunk ids, term counts and the vectors
as one contiguous float32 matrix), so the vector leg is one matrix-vector product and a
partial sort (brute force and exact: ~5 ms at 10k chunks × 512 dimensions, bound by memory
bandwidth, ~10× that at 100k), and the text leg reads only rowids from FTS5.

The FTS5 table indexes the analyzer's terms (see
:mod:`billing_toolkit.assistant.retrieval.analysis`), joined by spaces, with a tokenizer that
splits on whitespace only for our alphabet (``-``, ``.`` and ``+`` are token characters), so
``inv-2026-004281`` stays one token. ``detail=none``: we only ask which rows hold a term,
never positions, and the index is several times smaller.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from billing_toolkit.assistant.retrieval.analysis import index_entry
from billing_toolkit.assistant.retrieval.backends.base import (
    SCORE_DECIMALS,
    current_embedder,
    nearest_key,
    rounded,
    store_metadata,
)
from billing_toolkit.assistant.retrieval.backends.sqlite_snapshot import Snapshot
from billing_toolkit.assistant.retrieval.embedders.base import Vectors
from billing_toolkit.assistant.retrieval.errors import StoreError
from billing_toolkit.assistant.retrieval.records import Chunk
from billing_toolkit.assistant.retrieval.text_ranking import CorpusStats, Keys, TermPostings

_SCHEMA = """
CREATE TABLE IF NOT EXISTS kb_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS kb_chunks (
    rowid INTEGER PRIMARY KEY,
    chunk_id TEXT NOT NULL UNIQUE,
    document TEXT NOT NULL,
    heading_path TEXT NOT NULL,
    language TEXT NOT NULL,
    text TEXT NOT NULL,
    term_count INTEGER NOT NULL,
    embedding BLOB NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS kb_terms USING fts5(
    terms, detail=none, tokenize="unicode61 remove_diacritics 0 tokenchars '-.+'"
);
"""


def fts_phrase(term: str) -> str:
    """An FTS5 query for exactly one term: quoted, so ``-`` and ``+`` are not operators."""
    return '"' + term.replace('"', '""') + '"'


class SqliteStore:
    """A knowledge base in one SQLite file (or in memory when ``path`` is None)."""

    def __init__(self, path: Path | None) -> None:
        if path is not None and not path.parent.exists():
            raise StoreError(f"cannot create the SQLite store: folder {path.parent} does not exist")
        try:
            self._db = sqlite3.connect(
                ":memory:" if path is None else str(path), check_same_thread=False
            )
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open SQLite store {path}: {exc}") from None
        self._lock = threading.RLock()
        self._cache: Snapshot | None = None

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A transaction that also refreshes the corpus statistics and drops the snapshot.

        The statistics are kept in ``kb_meta`` so a query reads two small rows instead of
        scanning every chunk (whose rows carry the vectors) to count them.
        """
        with self._lock, self._db:
            yield self._db
            self._db.execute(
                "INSERT OR REPLACE INTO kb_meta (key, value)"
                " SELECT 'stats', count(*) || ' ' || coalesce(sum(term_count), 0) FROM kb_chunks"
            )
            self._cache = None

    def embedder_identity(self) -> str | None:
        with self._lock:
            return current_embedder(dict(self._db.execute("SELECT key, value FROM kb_meta")))

    def reset(self, embedder_identity: str, dimension: int) -> None:
        with self._write() as db:
            db.execute("DELETE FROM kb_chunks")
            db.execute("DELETE FROM kb_terms")
            db.executemany(
                "INSERT OR REPLACE INTO kb_meta (key, value) VALUES (?, ?)",
                store_metadata(embedder_identity, dimension),
            )

    def chunk_ids(self) -> set[str]:
        with self._lock:
            return {row[0] for row in self._db.execute("SELECT chunk_id FROM kb_chunks")}

    def count(self) -> int:
        return self.corpus_stats().chunks

    def add(self, chunks: Sequence[Chunk], vectors: Vectors) -> None:
        with self._write() as db:
            for chunk, vector in zip(chunks, vectors, strict=True):
                entry = index_entry(chunk.searchable_text)
                cursor = db.execute(
                    "INSERT INTO kb_chunks (chunk_id, document, heading_path, language, text,"
                    " term_count, embedding) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        chunk.chunk_id,
                        chunk.document,
                        json.dumps(chunk.heading_path, ensure_ascii=False),
                        chunk.language,
                        chunk.text,
                        entry.length,
                        np.asarray(vector, dtype=np.float32).tobytes(),
                    ),
                )
                db.execute(
                    "INSERT INTO kb_terms (rowid, terms) VALUES (?, ?)",
                    (cursor.lastrowid, " ".join(entry.terms)),
                )

    def build_indexes(self) -> None:
        """Nothing to do: FTS5 is maintained on every insert and vectors need no index."""

    def remove(self, chunk_ids: Collection[str]) -> None:
        with self._write() as db:
            for chunk_id in chunk_ids:
                row = db.execute(
                    "SELECT rowid FROM kb_chunks WHERE chunk_id = ?", (chunk_id,)
                ).fetchone()
                if row is not None:
                    db.execute("DELETE FROM kb_terms WHERE rowid = ?", row)
                    db.execute("DELETE FROM kb_chunks WHERE rowid = ?", row)

    def corpus_stats(self) -> CorpusStats:
        with self._lock:
            row = self._db.execute("SELECT value FROM kb_meta WHERE key = 'stats'").fetchone()
        count, total = row[0].split() if row else (0, 0)
        return CorpusStats.from_totals(int(count), int(total))

    def postings(self, terms: Sequence[str]) -> dict[str, TermPostings]:
        """One FTS5 ``MATCH`` per term; the rowids come back as one ``group_concat`` string that
        numpy parses, instead of one Python tuple per posting."""
        with self._lock:
            snapshot = self._snapshot()
            result = {}
            for term in terms:
                (joined,) = self._db.execute(
                    "SELECT group_concat(rowid) FROM kb_terms WHERE kb_terms MATCH ?",
                    (fts_phrase(term),),
                ).fetchone()
                if joined:
                    keys = np.fromstring(joined, dtype=np.int64, sep=",")
                    result[term] = TermPostings(keys, snapshot.lengths[snapshot.rows_of(keys)])
            return result

    def chunk_ids_of(self, keys: Keys) -> list[str]:
        snapshot = self._snapshot()
        return [snapshot.ids[row] for row in snapshot.rows_of(keys).tolist()]

    def _snapshot(self) -> Snapshot:
        with self._lock:
            if self._cache is None:
                dimension = self._db.execute(
                    "SELECT value FROM kb_meta WHERE key = 'dimension'"
                ).fetchone()
                self._cache = Snapshot.load(
                    self._db.execute(
                        "SELECT rowid, chunk_id, term_count, embedding FROM kb_chunks"
                        " ORDER BY rowid"
                    ).fetchall(),
                    int(dimension[0]) if dimension else 0,
                )
            return self._cache

    def nearest(self, vector: Vectors, limit: int) -> list[tuple[str, float]]:
        snapshot = self._snapshot()
        if not snapshot.ids or limit < 1:
            return []
        scores = np.round(snapshot.cosines(vector), SCORE_DECIMALS)
        if limit < len(scores):
            threshold = np.partition(scores, len(scores) - limit)[len(scores) - limit]
            candidates = np.flatnonzero(scores >= threshold)
        else:
            candidates = np.arange(len(scores))
        ranked = sorted(
            ((snapshot.ids[i], rounded(scores[i])) for i in candidates.tolist()), key=nearest_key
        )
        return ranked[:limit]

    def similarities(self, vector: Vectors, chunk_ids: Collection[str]) -> dict[str, float]:
        snapshot = self._snapshot()
        rows = [snapshot.row_of[c] for c in chunk_ids if c in snapshot.row_of]
        scores = snapshot.matrix[rows] @ np.asarray(vector, dtype=np.float32)
        return {snapshot.ids[i]: rounded(s) for i, s in zip(rows, scores, strict=True)}

    def fetch(self, chunk_ids: Collection[str]) -> dict[str, Chunk]:
        wanted = list(chunk_ids)
        with self._lock:
            rows = [
                row
                for start in range(0, len(wanted), 500)
                for row in self._db.execute(
                    "SELECT chunk_id, document, heading_path, language, text FROM kb_chunks"
                    f" WHERE chunk_id IN ({','.join('?' * len(wanted[start : start + 500]))})",
                    wanted[start : start + 500],
                )
            ]
        return {
            row[0]: Chunk(row[0], row[1], tuple(json.loads(row[2])), row[3], row[4]) for row in rows
        }

    def close(self) -> None:
        with self._lock:
            self._db.close()
