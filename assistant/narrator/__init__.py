"""Narrators: the template narrator (embedded default) and the chat-completions adapter."""

from assistant.narrator.base import (
    EvidenceChunk,
    Narration,
    NarrationError,
    NarrationRequest,
    Narrator,
)
from assistant.narrator.chat_completions import ChatCompletionsConfig, ChatCompletionsNarrator
from assistant.narrator.template import TemplateNarrator

__all__ = [
    "ChatCompletionsConfig",
    "ChatCompletionsNarrator",
    "EvidenceChunk",
    "Narration",
    "NarrationError",
    "NarrationRequest",
    "Narrator",
    "TemplateNarrator",
]
