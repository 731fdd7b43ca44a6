"""The narrator interface: evidence in, a reply and the chunk ids it used out.

A narrator writes the sentence around the figures; it is never trusted with them. Whatever it
returns goes through the humanizer, the grounding verifier and the forbidden-phrase check
before anyone reads it. `used_chunk_ids` is its structured claim of which knowledge-base chunks
it relied on; the verifier checks each was retrieved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.vocabulary.intents import Intent
from billing_toolkit.client.tool_result import ToolResult


class NarrationError(Exception):
    """The narrator could not produce a reply (model unreachable, malformed output, data it
    cannot read). The turn escalates instead of sending anything."""


@dataclass(frozen=True, slots=True)
class EvidenceChunk:
    """A retrieved chunk as a narrator sees it; `vector_score` is its similarity to the
    question (None when the retriever gave none)."""

    chunk_id: str
    text: str
    language: str
    vector_score: float | None = None
    kind: str = "policy"
    """`policy`, `worked_example` or `format_sample` (`retrieval/kinds.py`)."""
    heading: str = ""
    """The article's title and the section's heading, joined ("Métodos de pago > Zelle")."""


@dataclass(frozen=True, slots=True)
class NarrationRequest:
    """Everything a narrator may use for one reply, and nothing else.

    `tool_results` are the successful capability calls answering `intent` (never the customer
    lookup, which is in `customer`); `chunks` are the retrieved knowledge-base chunks.
    """

    question: str
    language: Language
    intent: Intent
    customer: Mapping[str, Any] | None
    tool_results: tuple[ToolResult, ...]
    chunks: tuple[EvidenceChunk, ...]


@dataclass(frozen=True, slots=True)
class Narration:
    reply: str
    used_chunk_ids: tuple[str, ...]


class Narrator(Protocol):
    def narrate(self, request: NarrationRequest) -> Narration: ...
