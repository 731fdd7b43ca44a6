"""Choose a backend from a DSN string.

Accepted forms (SQLAlchemy's SQLite convention, so the strings look familiar):

- ``sqlite://`` or ``sqlite://:memory:`` — embedded SQLite in memory (the default).
- ``sqlite:///kb.sqlite3`` — a file relative to the working directory (three slashes).
- ``sqlite:////var/lib/kb.sqlite3`` — an absolute path (four slashes).
- ``postgresql://user:password@host:5432/db`` (or ``postgres://``) — PostgreSQL with
  pgvector; any libpq URI works, including ``?host=/socket/dir``.

A store holds one knowledge base (one operator's documents): isolation between tenants is one
DSN each, never a shared table filtered by a column someone may forget.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from billing_toolkit.assistant.retrieval.errors import DSNError

DEFAULT_DSN = "sqlite://"


@dataclass(frozen=True, slots=True)
class SqliteDSN:
    """``path`` is ``None`` for an in-memory database."""

    path: Path | None


@dataclass(frozen=True, slots=True)
class PostgresDSN:
    uri: str


def parse_dsn(dsn: str) -> SqliteDSN | PostgresDSN:
    """Parse ``dsn`` or raise :class:`DSNError` naming the accepted forms."""
    scheme, separator, rest = dsn.partition("://")
    scheme = scheme.lower()
    if not separator:
        raise DSNError(f"not a DSN: {redact_dsn(dsn)!r}; expected sqlite://... or postgresql://...")
    if scheme == "sqlite":
        if rest in ("", ":memory:", "/:memory:"):
            return SqliteDSN(None)
        if not rest.startswith("/") or rest == "/":
            raise DSNError(
                f"malformed SQLite DSN {dsn!r}: use sqlite:///relative/path, "
                "sqlite:////absolute/path or sqlite:// for memory"
            )
        return SqliteDSN(Path(rest[1:]))
    if scheme in ("postgresql", "postgres"):
        return PostgresDSN(dsn)
    raise DSNError(
        f"unsupported DSN scheme {scheme!r}; use sqlite:///path, sqlite:// (memory) "
        "or postgresql://user@host:port/db"
    )


def redact_dsn(dsn: str) -> str:
    """The DSN with any password replaced by ``***``, safe to print or log."""
    try:
        parts = urlsplit(dsn)
    except ValueError:
        return "<unparseable DSN>"
    if parts.password is None:
        return re.sub(r"(password=)[^&\s]+", r"\1***", dsn)
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return re.sub(r"(password=)[^&\s]+", r"\1***", parts._replace(netloc=netloc).geturl())
