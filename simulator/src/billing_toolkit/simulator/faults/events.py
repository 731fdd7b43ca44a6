"""The fault event log: every injected fault, with when and for which request.

Bounded (oldest dropped first) so a long soak cannot exhaust memory; thread-safe because
the control may read it from a test thread while the server writes.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from billing_toolkit.contract.masking import mask_all


@dataclass(frozen=True, slots=True)
class FaultEvent:
    seq: int
    at: str
    """Wall-clock time, RFC 3339 UTC."""
    elapsed_s: float
    """Seconds on the fault clock since the simulator started (what time windows use)."""
    request_id: str
    rule_id: str
    source: str
    """`rule`, `scenario` or `header`."""
    kind: str
    operation_id: str
    method: str
    path: str
    """Masked: account numbers and identifiers in paths are personal data."""
    tenant: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class EventLog:
    def __init__(self, capacity: int = 10_000) -> None:
        self._events: deque[FaultEvent] = deque(maxlen=capacity)
        self._lock = threading.Lock()
        self._seq = 0

    def record(self, *, elapsed_s: float, request_id: str, rule_id: str, source: str, kind: str,
               operation_id: str, method: str, path: str, tenant: str | None) -> FaultEvent:  # fmt: skip
        with self._lock:
            self._seq += 1
            event = FaultEvent(
                seq=self._seq,
                at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                elapsed_s=round(elapsed_s, 6),
                request_id=request_id,
                rule_id=rule_id,
                source=source,
                kind=kind,
                operation_id=operation_id,
                method=method,
                path=mask_all(path),
                tenant=tenant,
            )
            self._events.append(event)
            return event

    def list(self, kind: str | None = None) -> list[FaultEvent]:
        """The events, oldest first; only those of `kind` when one is given."""
        with self._lock:
            return [event for event in self._events if kind is None or event.kind == kind]

    def clear(self) -> None:
        with self._lock:
            self._events.clear()
