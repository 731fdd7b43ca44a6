"""Every response carries X-Request-Id, echoing the client's when it sent one.

Support tickets quote the request id; without it a subscriber's "you told me the wrong
amount" cannot be traced to the request that produced it.
"""

from __future__ import annotations

from billing_toolkit.conformance.checks.base import ResponseRule, always
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.exchange import Exchange

HEADER = "X-Request-Id"
MAX_LENGTH = 128


def request_id_violations(exchange: Exchange, facts: ContractFacts) -> list[str]:
    value = exchange.response_header(HEADER)
    if not value:
        return [f"no {HEADER} header"]
    problems = []
    if len(value) > MAX_LENGTH:
        problems.append(f"{HEADER} is {len(value)} characters long (at most {MAX_LENGTH})")
    sent = exchange.request_header(HEADER)
    if sent and value != sent:
        problems.append(f"{HEADER} {value!r} does not echo the request's {sent!r}")
    body = exchange.json()
    echoed = body.get("request_id", value) if isinstance(body, dict) else value
    if exchange.status >= 400 and echoed != value:
        problems.append(f"problem request_id {echoed!r} differs from {HEADER} {value!r}")
    return problems


RULE = ResponseRule(
    name="request_id",
    meaning=(
        "Every response, success or error, carries a non-empty X-Request-Id (at most 128 "
        "characters); when the request sent one it is echoed; a problem body's request_id "
        "equals the header."
    ),
    remedy=(
        "Set X-Request-Id in an outermost middleware (so 404/405/500 responses of the "
        "framework get it too), reuse the incoming value when present, and copy it into "
        "problem bodies."
    ),
    applies_to=always,
    inspect=request_id_violations,
)
