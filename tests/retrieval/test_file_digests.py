"""`file_sha256`: a big file's digest, remembered only while the file cannot have changed."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from billing_toolkit.assistant.retrieval import cache_files
from billing_toolkit.assistant.retrieval.cache_files import file_sha256


def _flip_last_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))  # same size, and likely the same timestamp tick


def test_a_file_rewritten_just_after_hashing_gets_its_new_digest(tmp_path: Path) -> None:
    """A file modified within the timestamp's tick keeps its stat: nothing so fresh is kept."""
    weights = tmp_path / "model.safetensors"
    weights.write_bytes(b"weights" * 1000)
    cache = tmp_path / "cache"
    assert file_sha256(weights, cache) == hashlib.sha256(weights.read_bytes()).digest()
    _flip_last_byte(weights)
    assert file_sha256(weights, cache) == hashlib.sha256(weights.read_bytes()).digest()
    assert not list(cache.glob("sha256-*"))


def test_a_settled_file_is_hashed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache_files, "SETTLED_SECONDS", 0.0)
    weights = tmp_path / "config.json"
    weights.write_text('{"hidden_size": 384}')
    cache = tmp_path / "cache"
    digest = file_sha256(weights, cache)
    (memo,) = cache.glob("sha256-*.txt")
    memo.write_text("00" * 32)  # what is read back is the memo, not the file
    assert file_sha256(weights, cache) == bytes(32)
    memo.write_text("not a digest")  # a damaged memo is computed again
    assert file_sha256(weights, cache) == digest
    weights.write_text('{"hidden_size": 768}')  # another size: another identity
    assert file_sha256(weights, cache) == hashlib.sha256(weights.read_bytes()).digest()
