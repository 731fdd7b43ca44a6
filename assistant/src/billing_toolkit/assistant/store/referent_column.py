"""How a conversation's referents are stored: one JSON text column of `conversations`.

`{"items": [["invoice", "INV-2026-004748"], …], "until": "2026-11-10T13:30:00+00:00"}`, or
NULL when the last reply showed nothing. A store created before the column existed gets it
added on start (`ensure_column`); a value that cannot be read is no referents at all (bias:
"¿cuál?" again rather than a guess at what was shown).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from billing_toolkit.assistant.store.added_column import ensure_text_column
from billing_toolkit.assistant.store.model import Referent, Referents

COLUMN = "referents"


def encode(referents: Referents) -> str | None:
    if not referents.items or referents.until is None:
        return None
    return json.dumps(
        {"items": [[r.kind, r.key] for r in referents.items], "until": referents.until.isoformat()}
    )


def decode(text: str | None) -> Referents:
    if not text:
        return Referents()
    try:
        raw = json.loads(text)
        items = tuple(Referent(str(kind), str(key)) for kind, key in raw["items"])
        return Referents(items, datetime.fromisoformat(raw["until"]))
    except (ValueError, KeyError, TypeError):
        return Referents()


def ensure_column(connection: Any, dialect: str) -> None:
    """Add the column to a `conversations` table created without it (run in the schema
    transaction, after CREATE TABLE)."""
    ensure_text_column(connection, dialect, COLUMN)
