"""The one way the verifier's tests call it: an answer against tool-result evidence."""

from __future__ import annotations

from billing_toolkit.assistant.guards.grounding import GroundingResult, GroundingVerifier
from billing_toolkit.assistant.text.language import Language


def verify(answer: str, *evidence: str, language: Language | None = None) -> GroundingResult:
    """Verify `answer` against `evidence` as tool results, with no chunks and no citations."""
    return GroundingVerifier().verify(
        answer=answer,
        used_chunk_ids=[],
        retrieved_chunk_ids=[],
        evidence_texts=[],
        tool_result_texts=list(evidence),
        language=language,
    )
