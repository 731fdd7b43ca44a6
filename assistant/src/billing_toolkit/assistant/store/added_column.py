"""A text column added to `conversations` after the table first shipped, on start.

A store created before the column existed gets it in the schema transaction, after CREATE
TABLE: `ADD COLUMN IF NOT EXISTS` on PostgreSQL, a look at `PRAGMA table_info` on SQLite
(which has no such clause). The column's own module says how its value is written.
"""

from __future__ import annotations

from typing import Any


def ensure_text_column(connection: Any, dialect: str, column: str) -> None:
    """Add the TEXT column `column` to `conversations` unless it is there."""
    if dialect == "postgresql":
        connection.execute(f"ALTER TABLE conversations ADD COLUMN IF NOT EXISTS {column} TEXT")
        return
    columns = {row[1] for row in connection.execute("PRAGMA table_info(conversations)")}
    if column not in columns:
        connection.execute(f"ALTER TABLE conversations ADD COLUMN {column} TEXT")
