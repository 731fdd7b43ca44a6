"""The fault catalogue: every kind, its parameters, and what it needs to work.

Vocabulary follows what QA already knows from WireMock and Toxiproxy. A kind is either a
*delay* (latency: it adds time and lets the request go on, so delays compose) or
*terminal* (it decides the response, or the lack of one). Socket kinds act on the TCP
connection under uvicorn and are emulated in-process (see `billing_toolkit.simulator.faults.socket`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field, create_model

from billing_toolkit.simulator.numbers import Settings


class NoParams(Settings):
    """A kind that takes no parameter."""


def params(kind: str, **fields: tuple[Any, Any]) -> type[Settings]:
    """A kind's parameters as one settings model: name → (annotated type, default; `...`
    for a required one)."""
    definitions: dict[str, Any] = dict(fields)  # create_model's own keywords are typed too
    return create_model(kind, __base__=Settings, **definitions)


@dataclass(frozen=True, slots=True)
class Kind:
    name: str
    summary: str
    delay: bool = False
    params: type[Settings] = NoParams
    """The parameters it takes, checked and worded by `billing_toolkit.simulator.numbers`."""
    status: int | None = None
    """HTTP status of the problem response, for the HTTP kinds."""
    needs_404: bool = False


MAX_DELAY_MS = 600_000.0
"""Ten minutes: every delay is bounded (a rule is never a way to hang a worker for ever,
nor a number `asyncio.sleep` overflows on); the admin contract states the same maxima."""
DELAY = Annotated[float, Field(ge=0.0, le=MAX_DELAY_MS)]
POSITIVE = Annotated[float, Field(gt=0.0, le=MAX_DELAY_MS)]
RETRY_AFTER = Annotated[float, Field(ge=0, le=86_400, multiple_of=1)]

KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind(
            "latency_fixed",
            "Add a fixed delay.",
            delay=True,
            params=params("latency_fixed", ms=(DELAY, ...)),
        ),
        Kind(
            "latency_uniform",
            "Add a delay drawn uniformly from [min_ms, max_ms].",
            delay=True,
            params=params("latency_uniform", min_ms=(DELAY, ...), max_ms=(DELAY, ...)),
        ),
        Kind(
            "latency_lognormal",
            "Add a lognormal delay (median_ms, sigma): mostly fast, with a long tail.",
            delay=True,
            params=params(
                "latency_lognormal",
                median_ms=(POSITIVE, ...),
                sigma=(Annotated[float, Field(ge=0.0, le=5.0)], ...),
            ),
        ),
        Kind(
            "timeout",
            "Hold the request hold_s seconds (others are served meanwhile), then answer 504.",
            params=params("timeout", hold_s=(Annotated[float, Field(gt=0.0, le=3600.0)], 30.0)),
        ),
        Kind("http_500", "Answer 500 problem+json (code internal).", status=500),
        Kind("http_502", "Answer 502 problem+json (code unavailable).", status=502),
        Kind(
            "http_503",
            "Answer 503 problem+json (code unavailable) with Retry-After.",
            status=503,
            params=params("http_503", retry_after_s=(RETRY_AFTER, 5)),
        ),
        Kind("http_504", "Answer 504 problem+json (code unavailable).", status=504),
        Kind(
            "http_429",
            "Answer 429 problem+json (code rate_limited) with Retry-After.",
            status=429,
            params=params("http_429", retry_after_s=(RETRY_AFTER, 1)),
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
            params=params(
                "truncated_body", fraction=(Annotated[float, Field(gt=0.0, le=0.99)], 0.5)
            ),
        ),
        Kind(
            "slow_drip",
            "Send the real response chunk_bytes at a time, interval_ms apart.",
            params=params(
                "slow_drip",
                chunk_bytes=(Annotated[float, Field(ge=1, le=1_048_576, multiple_of=1)], 16),
                interval_ms=(Annotated[float, Field(ge=0.0, le=60_000.0)], 200),
            ),
        ),
    )
}

PROCESSED_FIRST = frozenset({"malformed_json", "truncated_body", "slow_drip"})
"""Kinds that let the request reach billing and spoil the response on the way back: a
payment behind a truncated response *was* recorded, as in a real outage."""
