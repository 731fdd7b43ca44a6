"""Helpers of the multi-replica tests: a clock several stores share and a test advances, and
a pipeline that echoes, so each reply names the message it answers."""

from __future__ import annotations

import itertools
import threading
from datetime import UTC, datetime, timedelta

from billing_toolkit.assistant.channel import TenantChannel, TurnHandler
from billing_toolkit.assistant.store import SqlConversationStore, TurnSpan
from billing_toolkit.assistant.turn.result import Action, TurnResult


class SharedClock:
    """Steps a millisecond per reading (timestamps stay ordered across threads and stores)
    and jumps when `advance`d — the way a test lets a lease expire without waiting."""

    def __init__(self) -> None:
        self._now = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            self._now += timedelta(milliseconds=1)
            return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += timedelta(seconds=seconds)


class Echo:
    def handle(self, phone: str, message: str, *, message_id: str | None = None) -> TurnResult:
        return TurnResult(Action.REPLY, f"re: {message}", (), ())


def echo_factory(tenant: TenantChannel, store: SqlConversationStore) -> TurnHandler:
    return Echo()


def overlapping(spans: list[TurnSpan]) -> list[tuple[TurnSpan, TurnSpan]]:
    """Pairs of turns of one conversation that ran at the same time."""
    by_conversation: dict[tuple[str, str], list[TurnSpan]] = {}
    for span in spans:
        by_conversation.setdefault((span.tenant, span.phone), []).append(span)
    pairs = []
    for turns in by_conversation.values():
        turns.sort(key=lambda s: s.started_at)
        for before, after in itertools.pairwise(turns):
            if before.ended_at is None or after.started_at < before.ended_at:
                pairs.append((before, after))
    return pairs
