"""429 and 503 carry Retry-After (whole seconds), so clients back off instead of hammering.

The kit cannot make a healthy staging API throttle; it judges every 429/503 it sees and,
with --rate-limit-probe N, sends a burst to provoke one. Seeing none is reported as
skipped, not passed.
"""

from __future__ import annotations

from billing_toolkit.conformance.checks.base import ResponseRule
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.exchange import Exchange

RETRYABLE_STATUSES = frozenset({429, 503})


def is_retryable(exchange: Exchange) -> bool:
    return exchange.status in RETRYABLE_STATUSES


def retry_after_violations(exchange: Exchange, facts: ContractFacts) -> list[str]:
    value = exchange.response_header("Retry-After")
    if value is None:
        return ["no Retry-After header"]
    if not value.strip().isdigit():
        return [f"Retry-After {value!r} is not a whole number of seconds"]
    return []


RULE = ResponseRule(
    name="retry_after",
    meaning="Every 429 and 503 response carries Retry-After as a whole number of seconds (≥ 0).",
    remedy=(
        "Add Retry-After to the rate limiter's 429 and to every 503 (readiness, maintenance, "
        "upstream down), in seconds rather than an HTTP date."
    ),
    applies_to=is_retryable,
    inspect=retry_after_violations,
    nothing_to_inspect="no 429/503 was observed (use --rate-limit-probe N to provoke one)",
)
