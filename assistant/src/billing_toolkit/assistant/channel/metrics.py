"""What an operator runs the channel by, in the Prometheus text format (`GET /metrics`).

Each app gets a registry of its own (two apps in one test process never mix their counts).
Labels are closed vocabularies — HTTP status, turn action, escalation reason, send result —
never a phone, a tenant's subscriber or a text: nothing personal reaches a scrape. The
backlog gauges are read from the store at scrape time, so every replica reports the whole
store's queue (alert on the maximum across replicas, not the sum).
"""

from __future__ import annotations

from datetime import datetime

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from billing_toolkit.assistant.store import Backlog

__all__ = ["CONTENT_TYPE_LATEST", "ChannelMetrics"]

_ACK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_TURN_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


class ChannelMetrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.deliveries = Counter(
            "assistant_webhook_deliveries_total",
            "Webhook deliveries answered, by HTTP status.",
            ["status"],
            registry=r,
        )
        self.ack_seconds = Histogram(
            "assistant_webhook_ack_seconds",
            "Time from a delivery's arrival to its answer.",
            buckets=_ACK_BUCKETS,
            registry=r,
        )
        self.messages = Counter(
            "assistant_webhook_messages_total",
            "Messages in deliveries, by what became of them.",
            ["result"],
            registry=r,
        )
        self.turns = Counter(
            "assistant_turns_total",
            "Turns run, by action and escalation reason ('' when none).",
            ["action", "reason"],
            registry=r,
        )
        self.turn_seconds = Histogram(
            "assistant_turn_duration_seconds",
            "Time a turn takes (pipeline and store).",
            buckets=_TURN_BUCKETS,
            registry=r,
        )
        self.send_attempts = Counter(
            "assistant_send_attempts_total",
            "Requests made to the Graph API to deliver replies.",
            registry=r,
        )
        self.sends = Counter(
            "assistant_sends_total",
            "Replies settled, by result (sent, failed).",
            ["result"],
            registry=r,
        )
        self.takeovers = Counter(
            "assistant_lease_takeovers_total",
            "Conversation leases taken over after their holder let them "
            "expire (a replica died or stalled).",
            registry=r,
        )
        self.unclaimed = Gauge(
            "assistant_queue_unclaimed_messages",
            "Inbound messages stored and not yet claimed by a turn.",
            registry=r,
        )
        self.oldest_age = Gauge(
            "assistant_queue_oldest_unclaimed_age_seconds",
            "Age of the oldest message not yet claimed (0 when none).",
            registry=r,
        )
        self.unsent = Gauge(
            "assistant_queue_unsent_replies",
            "Replies not yet settled (pending, sending, resending).",
            registry=r,
        )
        self.workers_alive = Gauge(
            "assistant_workers_alive",
            "Background workers of this replica still running.",
            registry=r,
        )

    def observe_backlog(self, backlog: Backlog, now: datetime, workers_alive: int) -> None:
        self.unclaimed.set(backlog.unclaimed)
        oldest = backlog.oldest_unclaimed
        self.oldest_age.set(max(0.0, (now - oldest).total_seconds()) if oldest else 0.0)
        self.unsent.set(backlog.unsent)
        self.workers_alive.set(workers_alive)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)
