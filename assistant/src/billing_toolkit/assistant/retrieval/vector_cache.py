"""Vectors kept on disk, so a process does not re-embed the utterance set or the knowledge base
to start.

Embedding the training rows with MiniLM takes seconds on a laptop CPU, and the shipped
knowledge base over ten: every replica, CLI run and test process would pay it again for the
same texts and the same model. The vectors are a pure function of (model identity, texts), so
that pair, hashed, names the file. Only texts the operator ships pass through here — training
rows and knowledge-base chunks, never a subscriber's message (a query is embedded directly), so
no personal data reaches the disk and the cache is bounded by what is shipped. Bias: the
cache only ever saves time — a missing, unreadable, truncated or mismatched file is
recomputed, and a directory that cannot be written is simply not used.

Where: `cache_directory()` (`cache_files.py`: `BILLING_TOOLKIT_CACHE`, else
`$XDG_CACHE_HOME/billing-toolkit`, else `~/.cache/billing-toolkit`).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from billing_toolkit.assistant.retrieval.cache_files import ENV_CACHE, cache_directory
from billing_toolkit.assistant.retrieval.embedders.base import Embedder, Vectors

__all__ = ["ENV_CACHE", "cache_directory", "cache_key", "cached_vectors", "known_or_embedded"]
_log = logging.getLogger(__name__)


def cache_key(identity: str, texts: Sequence[str]) -> str:
    digest = hashlib.sha256(identity.encode("utf-8"))
    for text in texts:
        digest.update(b"\0" + text.encode("utf-8"))
    return digest.hexdigest()


_BANK: dict[tuple[str, str], np.ndarray] = {}
"""Each shipped text's vector, once per process: the cross-validation folds are overlapping
subsets of one utterance set, and embedding each fold whole embedded every row four times.
Bounded, like the files, by the utterance set and the knowledge base."""
_READ: set[str] = set()
"""The files already read into the bank by this process (a fold's model reads the set's)."""


def _embedded_once(embedder: Embedder, texts: Sequence[str]) -> Vectors:
    new = [text for text in dict.fromkeys(texts) if (embedder.identity, text) not in _BANK]
    if new:
        for text, vector in zip(new, embedder.embed(new), strict=True):
            _BANK[(embedder.identity, text)] = vector
    if not texts:
        return np.zeros((0, embedder.dimension), dtype=np.float32)
    return np.stack([_BANK[(embedder.identity, text)] for text in texts])


def known_or_embedded(embedder: Embedder, messages: Sequence[str]) -> Vectors:
    """`embedder.embed(messages)`, but a message that is a shipped text this process already
    holds (a held-out utterance being measured) takes its vector from the bank. The others are
    embedded now and kept nowhere: a subscriber's message never reaches the bank or the disk."""
    identity = embedder.identity
    missing = [m for m in dict.fromkeys(messages) if (identity, m) not in _BANK]
    if not missing:
        return np.stack([_BANK[(identity, m)] for m in messages])
    if len(missing) == len(messages):
        return embedder.embed(list(messages))
    fresh = dict(zip(missing, embedder.embed(missing), strict=True))
    return np.stack([fresh[m] if m in fresh else _BANK[(identity, m)] for m in messages])


def cached_vectors(
    embedder: Embedder, texts: Sequence[str], directory: Path | None = None
) -> Vectors:
    """`embedder.embed(texts)`, read from the cache when this exact pair was embedded before;
    either way, every text's vector is in this process's bank afterwards."""
    folder = cache_directory() if directory is None else directory
    path = folder / f"vectors-{cache_key(embedder.identity, texts)}.npy"
    try:
        vectors = np.load(path, allow_pickle=False)
        if vectors.shape == (len(texts), embedder.dimension) and vectors.dtype == np.float32:
            if path.name not in _READ:
                _READ.add(path.name)
                for text, vector in zip(texts, vectors, strict=True):
                    _BANK.setdefault((embedder.identity, text), vector)
            return vectors
    except (OSError, ValueError):
        pass
    vectors = _embedded_once(embedder, texts)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".npy", delete=False) as handle:
            np.save(handle, vectors, allow_pickle=False)
        os.replace(handle.name, path)
    except OSError as exc:
        _log.debug("vector cache not written (%s)", type(exc).__name__)
    return vectors
