"""FibraNet's knowledge base: Markdown policy documents in ``es/`` and ``en/``.

Shipped as package data and ingested by
:func:`billing_toolkit.assistant.retrieval.open_retriever`. The facts here (fees, deadlines,
plan prices) must agree with the simulator's billing rules; the labelled queries of the
retrieval evaluation live beside them in ``eval_queries.yaml``, and the identifiers the
articles may quote in ``operator.yaml`` (read by :mod:`.operator_profile`).
"""

from __future__ import annotations

from pathlib import Path

KNOWLEDGE_DIR = Path(__file__).resolve().parent
EVAL_QUERIES = KNOWLEDGE_DIR / "eval_queries.yaml"
