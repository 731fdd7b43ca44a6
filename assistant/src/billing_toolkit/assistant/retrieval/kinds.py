"""What a knowledge-base chunk is: policy, a worked example, or a format sample.

Illustration is not evidence. "Cuenta 1000000123 … Total USD 32,48" under "Ejemplo: factura
INV-2026-000123" is true of no subscriber; quoted as their bill it is a wrong figure with a
citation. So the kind is read from the document's *structure* — a heading or a block that
opens with "Ejemplo"/"Example", a block that shows what a format looks like — and chunking
never packs blocks of different kinds together (`chunking.py`), so a chunk has one kind and
the same function gives it again from the stored heading path and text.

Bias: a block that announces itself as an example is an example, whatever it contains; a
policy paragraph that mentions "por ejemplo" in passing stays policy (its rule is the point).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum

from billing_toolkit.assistant.text.folding import fold


class ChunkKind(StrEnum):
    POLICY = "policy"
    WORKED_EXAMPLE = "worked_example"
    FORMAT_SAMPLE = "format_sample"


_EXAMPLE_OPENING = re.compile(r"^(?:[-*•]\s*)?(?:ejemplo|example|for example|por ejemplo)\b")
_FORMAT = re.compile(r"\b(?:formato|format(?:ted)?)\b.{0,80}\b(?:por ejemplo|for example|e\.g\.)")


def block_kind(block: str, heading_path: Sequence[str] = ()) -> ChunkKind:
    """The kind of one block (paragraph, list, table) under `heading_path`."""
    if any(_EXAMPLE_OPENING.match(fold(heading)) for heading in heading_path):
        return ChunkKind.WORKED_EXAMPLE
    text = fold(block)
    if _EXAMPLE_OPENING.match(text):
        return ChunkKind.WORKED_EXAMPLE
    if _FORMAT.search(text):
        return ChunkKind.FORMAT_SAMPLE
    return ChunkKind.POLICY


def chunk_kind(heading_path: Sequence[str], text: str) -> ChunkKind:
    """A chunk's kind: its first block's (chunking keeps a chunk's blocks of one kind)."""
    return block_kind(text.split("\n\n", 1)[0], heading_path)
