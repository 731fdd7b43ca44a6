"""Stores behind one interface (:class:`ChunkStore`), chosen by a DSN.

- ``sqlite://...`` → :class:`SqliteStore` (embedded, the default, no server).
- ``postgresql://...`` → :class:`PostgresStore` (pgvector + tsvector, as production runs it).
"""

from __future__ import annotations

from billing_toolkit.assistant.retrieval.backends.base import ChunkStore
from billing_toolkit.assistant.retrieval.backends.postgres import PostgresStore
from billing_toolkit.assistant.retrieval.backends.sqlite import SqliteStore
from billing_toolkit.assistant.retrieval.dsn import DEFAULT_DSN, PostgresDSN, parse_dsn


def open_store(dsn: str = DEFAULT_DSN) -> ChunkStore:
    """Open (creating if needed) the store a DSN names."""
    parsed = parse_dsn(dsn)
    if isinstance(parsed, PostgresDSN):
        return PostgresStore(parsed.uri)
    return SqliteStore(parsed.path)


__all__ = ["ChunkStore", "PostgresStore", "SqliteStore", "open_store"]
