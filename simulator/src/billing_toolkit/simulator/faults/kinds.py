"""The fault catalogue: every kind, its parameters, and what it needs to work.

Vocabulary follows what QA already knows from WireMock and Toxiproxy. A kind is either a
*delay* (latency: it adds time and lets the request go on, so delays compose) or
*terminal* (it decides the response, or the lack of one). Socket kinds act on the TCP
connection under uvicorn and are emulated in-process (see `billing_toolkit.simulator.faults.socket`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Param:
    default: float | None = None
    """None: the parameter is required."""
    minimum: float = 0.0
    exclusive_minimum: bool = False
    maximum: float | None = None
    integer: bool = False

    def problem(self, value: object) -> str | None:
        """Why `value` is not acceptable, or None."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"must be a number, got {value!r}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"must be a finite number, got {value!r}"
        if self.integer and isinstance(value, float) and not value.is_integer():
            return f"must be a whole number, got {value!r}"
        if value < self.minimum or (self.exclusive_minimum and value == self.minimum):
            relation = "greater than" if self.exclusive_minimum else "at least"
            return f"must be {relation} {self.minimum:g}, got {value!r}"
        if self.maximum is not None and value > self.maximum:
            return f"must be at most {self.maximum:g}, got {value!r}"
        return None


@dataclass(frozen=True, slots=True)
class Kind:
    name: str
    summary: str
    delay: bool = False
    params: dict[str, Param] = field(default_factory=dict)
    status: int | None = None
    """HTTP status of the problem response, for the HTTP kinds."""
    needs_404: bool = False


MAX_DELAY_MS = 600_000.0
"""Ten minutes: every delay is bounded (a rule is never a way to hang a worker for ever,
nor a number `asyncio.sleep` overflows on); the admin contract states the same maxima."""
DELAY = Param(maximum=MAX_DELAY_MS)
POSITIVE = Param(minimum=0.0, exclusive_minimum=True, maximum=MAX_DELAY_MS)

KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind("latency_fixed", "Add a fixed delay.", delay=True, params={"ms": DELAY}),
        Kind(
            "latency_uniform",
            "Add a delay drawn uniformly from [min_ms, max_ms].",
            delay=True,
            params={"min_ms": DELAY, "max_ms": DELAY},
        ),
        Kind(
            "latency_lognormal",
            "Add a lognormal delay (median_ms, sigma): mostly fast, with a long tail.",
            delay=True,
            params={"median_ms": POSITIVE, "sigma": Param(maximum=5.0)},
        ),
        Kind(
            "timeout",
            "Hold the request hold_s seconds (others are served meanwhile), then answer 504.",
            params={
                "hold_s": Param(default=30.0, minimum=0.0, exclusive_minimum=True, maximum=3600.0)
            },
        ),
        Kind("http_500", "Answer 500 problem+json (code internal).", status=500),
        Kind("http_502", "Answer 502 problem+json (code unavailable).", status=502),
        Kind(
            "http_503",
            "Answer 503 problem+json (code unavailable) with Retry-After.",
            status=503,
            params={"retry_after_s": Param(default=5, integer=True, maximum=86_400)},
        ),
        Kind("http_504", "Answer 504 problem+json (code unavailable).", status=504),
        Kind(
            "http_429",
            "Answer 429 problem+json (code rate_limited) with Retry-After.",
            status=429,
            params={"retry_after_s": Param(default=1, integer=True, maximum=86_400)},
        ),
        Kind(
            "not_found",
            "Answer the operation's business 404 as if the resource did not exist.",
            needs_404=True,
        ),
        Kind("connection_reset", "Reset the TCP connection (RST) without answering."),
        Kind("connection_drop", "Close the connection (FIN) without sending a byte."),
        Kind("empty_response", "Answer 200 with an empty body."),
        Kind("malformed_json", "Answer the real status with a body that is not JSON."),
        Kind(
            "truncated_body",
            "Send the real headers and the first `fraction` of the body, then close.",
            params={
                "fraction": Param(default=0.5, minimum=0.0, exclusive_minimum=True, maximum=0.99)
            },
        ),
        Kind(
            "slow_drip",
            "Send the real response chunk_bytes at a time, interval_ms apart.",
            params={
                "chunk_bytes": Param(default=16, minimum=1, integer=True, maximum=1_048_576),
                "interval_ms": Param(default=200, maximum=60_000.0),
            },
        ),
    )
}

PROCESSED_FIRST = frozenset({"malformed_json", "truncated_body", "slow_drip"})
"""Kinds that let the request reach billing and spoil the response on the way back: a
payment behind a truncated response *was* recorded, as in a real outage."""
