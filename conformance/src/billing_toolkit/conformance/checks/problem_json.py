"""Every error is an RFC 9457 problem+json with the documented `code`.

The assistant decides between "the API said no" (answer the subscriber) and "the API did
not work" (escalate) from `code` alone, so a 404 with the wrong code, or an HTML error
page from a proxy, turns an answer into an outage or the other way round.
"""

from __future__ import annotations

from billing_toolkit.conformance.checks.base import ResponseRule
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.exchange import Exchange

PROBLEM_MEDIA_TYPE = "application/problem+json"
REQUIRED_MEMBERS = ("type", "title", "status", "code")


def is_error(exchange: Exchange) -> bool:
    return exchange.status >= 400


def problem_violations(exchange: Exchange, facts: ContractFacts) -> list[str]:
    """What is wrong with an error response, judged against the contract."""
    if exchange.media_type != PROBLEM_MEDIA_TYPE:
        return [f"Content-Type is {exchange.media_type or 'missing'}, not {PROBLEM_MEDIA_TYPE}"]
    body = exchange.json()
    if not isinstance(body, dict):
        return ["the body is not a JSON object"]
    problems = [f"member {name!r} is missing" for name in REQUIRED_MEMBERS if name not in body]
    if "status" in body and body["status"] != exchange.status:
        problems.append(
            f"body status {body['status']!r} differs from HTTP status {exchange.status}"
        )
    code = body.get("code")
    if "code" in body and code not in facts.formats.problem_codes:
        problems.append(f"code {code!r} is not a documented ProblemCode")
    operation = facts.matcher.operation_for(exchange.method, exchange.path)
    if operation is None or code not in facts.formats.problem_codes:
        return problems
    expected = operation.error_codes().get(exchange.status)
    if expected is not None and code != expected:
        problems.append(
            f"code {code!r} where {operation.operation_id} documents {expected!r} "
            f"for {exchange.status}"
        )
    return problems


RULE = ResponseRule(
    name="problem_json",
    meaning=(
        "Every 4xx/5xx response is application/problem+json with type, title, status "
        "(equal to the HTTP status) and a documented code; the code is the one the contract "
        "documents for that operation and status (404 on an invoice is invoice_not_found, "
        "on a customer customer_not_found, 401 is unauthorized, ...)."
    ),
    remedy=(
        "Route every error, including framework defaults (404/405 of the router, validation "
        "errors, uncaught exceptions), through one problem+json renderer that sets Content-Type "
        "application/problem+json and the contract's code for the status."
    ),
    applies_to=is_error,
    inspect=problem_violations,
    nothing_to_inspect="no error response was observed",
)
