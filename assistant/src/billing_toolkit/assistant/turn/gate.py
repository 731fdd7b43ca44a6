"""The state gate: the first stage of a turn, and the only one that can make the bot silent.

The bot answers only a conversation in `BOT` state. While a person has it (`HUMAN_ACTIVE`) or
it waits for one after an escalation (`WAITING_FOR_HUMAN`), the bot writes nothing — not even
"an agent will be with you" again: the subscriber already got that once, and a request for a
person in the meantime is already being served. Bias: anything but `BOT` is silence.
"""

from __future__ import annotations

from dataclasses import dataclass

from billing_toolkit.assistant.store.model import Conversation, ConversationState


@dataclass(frozen=True, slots=True)
class GateDecision:
    proceed: bool
    state: ConversationState


def pass_gate(conversation: Conversation) -> GateDecision:
    """Whether the bot may handle this turn of `conversation`."""
    return GateDecision(conversation.state is ConversationState.BOT, conversation.state)
