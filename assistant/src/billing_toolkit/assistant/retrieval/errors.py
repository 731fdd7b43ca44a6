"""Errors the retrieval package raises, each named for what went wrong.

They all derive from :class:`RetrievalError`, so a caller (the CLI, the assistant pipeline)
can catch the family at one level and print the message: every message is one line that
says what was wrong and what to do about it.
"""

from __future__ import annotations


class RetrievalError(Exception):
    """Base class of every error raised by :mod:`billing_toolkit.assistant.retrieval`."""


class DSNError(RetrievalError):
    """The DSN names no backend we have, or is malformed."""


class KnowledgeBaseError(RetrievalError):
    """The knowledge-base folder is missing, empty or unreadable."""


class EmbedderError(RetrievalError):
    """An embedder cannot be built (unknown name, optional extra not installed)."""


class EmbedderMismatchError(RetrievalError):
    """A store was embedded with one model and is being searched with another.

    Cosine scores between vectors of two different models are meaningless, so this is
    refused rather than answered badly.
    """


class StoreError(RetrievalError):
    """The backing store cannot be opened or is not usable (no pgvector, bad path...)."""


class QueryError(RetrievalError):
    """The query or a search parameter is unusable (empty text, top_k below 1...)."""
