"""How a conversation's payment-report draft is stored: one JSON text column of
`conversations`, so the replica that takes the next turn continues the same draft.

`{"method": "pago_movil", "amount": "1310.40", "currency": "VES", "reference": null, …,
"asked": "reference", "until": "2026-11-10T13:30:00+00:00"}`, or NULL when no report is
being read. A store created before the column existed gets it added on start
(`ensure_column`); a value that cannot be read is no draft at all (bias: ask for the report
again rather than file half of a garbled one).
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from datetime import datetime
from typing import Any

from billing_toolkit.assistant.store.added_column import ensure_text_column
from billing_toolkit.assistant.store.model import ReportDraft

COLUMN = "report_draft"
_TEXT_FIELDS = tuple(f.name for f in fields(ReportDraft) if f.name != "until")


def encode(draft: ReportDraft | None) -> str | None:
    if draft is None or draft.until is None:
        return None
    return json.dumps(asdict(draft) | {"until": draft.until.isoformat()})


def decode(text: str | None) -> ReportDraft | None:
    if not text:
        return None
    try:
        raw = json.loads(text)
        values = {name: _text(raw[name]) for name in _TEXT_FIELDS}
        return ReportDraft(**values, until=datetime.fromisoformat(raw["until"]))
    except (ValueError, KeyError, TypeError):
        return None


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"not a text field: {value!r}")


def ensure_column(connection: Any, dialect: str) -> None:
    """Add the column to a `conversations` table created without it (run in the schema
    transaction, after CREATE TABLE)."""
    ensure_text_column(connection, dialect, COLUMN)
