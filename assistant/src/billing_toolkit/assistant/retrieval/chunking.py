"""Split a Markdown document into chunks with stable ids and heading paths.

Chunks follow the document's own structure: every heading opens a section, and a section's
paragraphs, lists and tables are packed into chunks of at most ``max_words`` words without
ever splitting a block unless the block alone is too long, and never packing a worked example
or a format sample with policy text (`kinds.py`: a chunk has one kind). Splitting on structure rather than
on a fixed window keeps a rule and its exception ("Zelle — solo cuentas en USD") together.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from billing_toolkit.assistant.retrieval.kinds import block_kind
from billing_toolkit.assistant.retrieval.records import Chunk
from billing_toolkit.assistant.text.sentences import split_sentences

DEFAULT_MAX_WORDS = 160
"""Big enough for a policy paragraph with its example, small enough that pruning one chunk
saves real prompt tokens."""

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True, slots=True)
class _Section:
    heading_path: tuple[str, ...]
    blocks: tuple[str, ...]


def chunk_id_for(document: str, heading_path: tuple[str, ...], text: str, occurrence: int) -> str:
    """``<document>#<12 hex>``: readable where it came from, and changes with the content.

    ``occurrence`` separates two identical passages under the same heading of one document,
    which would otherwise collide.
    """
    material = "\x1f".join((document, " > ".join(heading_path), text, str(occurrence)))
    return f"{document}#{hashlib.sha256(material.encode('utf-8')).hexdigest()[:12]}"


def _sections(markdown: str) -> Iterator[_Section]:
    path: list[tuple[int, str]] = []
    blocks: list[str] = []
    current: list[str] = []
    in_fence = False

    def close_block() -> None:
        if current:
            blocks.append("\n".join(current).strip())
            current.clear()

    def heading_path() -> tuple[str, ...]:
        return tuple(title for _, title in path)

    for line in markdown.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
        heading = None if in_fence else _HEADING.match(line)
        if heading:
            close_block()
            if blocks:
                yield _Section(heading_path(), tuple(blocks))
                blocks = []
            level = len(heading.group(1))
            path = [(lvl, title) for lvl, title in path if lvl < level]
            path.append((level, heading.group(2)))
        elif not line.strip() and not in_fence:
            close_block()
        else:
            current.append(line.rstrip())
    close_block()
    if blocks:
        yield _Section(heading_path(), tuple(blocks))


def _split_long(block: str, max_words: int) -> Iterator[str]:
    """Cut an over-long block at sentence (or line) ends, never inside a sentence."""
    pieces = [p for line in block.splitlines() for p in split_sentences(line)]
    current: list[str] = []
    for piece in pieces:
        if current and len(" ".join(current + [piece]).split()) > max_words:
            yield " ".join(current)
            current = []
        current.append(piece)
    if current:
        yield " ".join(current)


def _pack(
    blocks: tuple[str, ...], max_words: int, heading_path: tuple[str, ...] = ()
) -> Iterator[str]:
    current: list[str] = []
    words = 0
    kind = None
    for block in blocks:
        size = len(block.split())
        if current and block_kind(block, heading_path) is not kind:
            yield "\n\n".join(current)
            current, words = [], 0
        kind = block_kind(block, heading_path)
        if size > max_words:
            if current:
                yield "\n\n".join(current)
                current, words = [], 0
            yield from _split_long(block, max_words)
            continue
        if current and words + size > max_words:
            yield "\n\n".join(current)
            current, words = [], 0
        current.append(block)
        words += size
    if current:
        yield "\n\n".join(current)


def chunk_markdown(
    document: str, markdown: str, *, language: str, max_words: int = DEFAULT_MAX_WORDS
) -> list[Chunk]:
    """Chunks of one document, in reading order.

    ``document`` is the path relative to the knowledge-base root (POSIX separators); it is
    part of every chunk id. Heading-only sections produce no chunk.
    """
    if max_words < 1:
        raise ValueError(f"max_words must be at least 1, got {max_words}")
    seen: Counter[tuple[tuple[str, ...], str]] = Counter()
    chunks = []
    for section in _sections(markdown):
        for text in _pack(section.blocks, max_words, section.heading_path):
            key = (section.heading_path, text)
            chunk_id = chunk_id_for(document, section.heading_path, text, seen[key])
            seen[key] += 1
            chunks.append(Chunk(chunk_id, document, section.heading_path, language, text))
    return chunks
