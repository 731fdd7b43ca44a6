"""What a finished turn leaves behind: its outcome and the trace of every stage's decision.

(The turn while it runs is `pipeline._RunningTurn`; this is all that outlives it.)

The trace is what an operator reads to understand why the bot said what it said — or why it
said nothing — so every stage records a decision, even "nothing to do". Trace details are
masked (phones, national IDs, account numbers) because traces end up in logs and CLI output;
the reply and the agent summary are not, because they go to the subscriber and to the
operator's agent respectively.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from billing_toolkit.assistant.text.masking import mask_personal
from billing_toolkit.assistant.vocabulary.escalation import (
    AgentSummary,
    Escalation,
    EscalationReason,
)


class Action(StrEnum):
    REPLY = "reply"
    ESCALATE = "escalate"
    SILENT = "silent"


@dataclass(frozen=True, slots=True)
class StageRecord:
    stage: str
    decision: str
    detail: Mapping[str, Any] = field(default_factory=dict)


def _masked(value: Any) -> Any:
    if isinstance(value, str):
        return mask_personal(value)
    if isinstance(value, Mapping):
        return {key: _masked(item) for key, item in value.items()}
    if isinstance(value, Sequence):
        return [_masked(item) for item in value]
    return value


class Trace:
    """Collects stage records in order, masking personal identifiers in their details."""

    def __init__(self) -> None:
        self._records: list[StageRecord] = []

    def record(self, stage: str, decision: str, **detail: Any) -> None:
        self._records.append(StageRecord(stage, decision, _masked(detail)))

    @property
    def records(self) -> tuple[StageRecord, ...]:
        return tuple(self._records)


@dataclass(frozen=True, slots=True)
class TurnResult:
    """What a turn produced.

    `action` is `reply` (send `reply`), `escalate` (send `reply`, a hand-off notice, and give
    the conversation to a person with `escalation`) or `silent` (send nothing).
    """

    action: Action
    reply: str | None
    citations: tuple[str, ...]
    trace: tuple[StageRecord, ...]
    escalation: Escalation | None = None

    @property
    def reason(self) -> EscalationReason | None:
        return self.escalation.reason if self.escalation else None

    @property
    def agent_summary(self) -> AgentSummary | None:
        return self.escalation.summary if self.escalation else None

    def to_dict(self) -> dict[str, Any]:
        escalation = self.escalation.to_dict() if self.escalation else None
        return {
            "action": self.action.value,
            "reply": self.reply,
            "reason": self.reason.value if self.reason else None,
            "agent_summary": escalation["summary"] if escalation else None,
            "escalation_context": escalation["context"] if escalation else None,
            "citations": list(self.citations),
            "trace": [
                {"stage": r.stage, "decision": r.decision, "detail": dict(r.detail)}
                for r in self.trace
            ],
        }
