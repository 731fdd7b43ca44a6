"""Narrators: the template narrator (embedded default) and the chat-completions adapter."""

from billing_toolkit.assistant.narrator.base import (
    EvidenceChunk,
    Narration,
    NarrationError,
    NarrationRequest,
    Narrator,
)
from billing_toolkit.assistant.narrator.chat_completions import (
    ChatCompletionsConfig,
    ChatCompletionsNarrator,
)
from billing_toolkit.assistant.narrator.template import TemplateNarrator

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
