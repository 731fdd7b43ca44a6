"""Is this answer the billing API's? Judged on the discovery requests, before any check runs.

A wrong `--base-url` (a web page, a proxy's error page, some other JSON API) must not be
reported as "account not found" or, worse, taken as the customer: every check after it
would judge something that is not a billing API. So the answers discovery relies on are
held to the contract: a documented status, a documented media type, a body valid against
the documented schema (jsonschema-rs, the validator the simulator uses). Anything else
stops the run with one line saying what was seen (`GET /v1/customers/10******21 answered
200 text/html: this does not look like the billing API`). Bias: refuse to start rather than
judge an answer the contract does not describe; identifiers in messages are masked.
"""

from __future__ import annotations

from typing import Any

import jsonschema_rs

from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.contract.masking import mask

NOT_BILLING = "this does not look like the billing API"
MAX_DETAIL_CHARS = 120


def expect_billing_answer(exchange: Exchange, facts: ContractFacts, what: str) -> dict[str, Any]:
    """The 2xx body of `exchange` when it is the billing API's answer about `what` (e.g.
    `account 10******21`); otherwise a `KitError` naming what came back."""
    refuse_foreign(exchange, facts)
    seen = mask(exchange.answered())
    body: dict[str, Any] = exchange.json()
    if 200 <= exchange.status < 300:
        return body
    code = body.get("code")
    if exchange.status == 401:
        raise KitError("the API refused the API key (401): check --api-key / $BILLING_API_KEY")
    if exchange.status == 404:
        raise KitError(f"{what} not found with this API key: {mask(exchange.describe())}")
    if exchange.status >= 500:
        raise KitError(f"{seen} ({code}): the API failed while the kit read {what}")
    raise KitError(f"{seen} ({code}) when the kit read {what}")


def refuse_foreign(exchange: Exchange, facts: ContractFacts) -> None:
    """`KitError` when no response came back, or when it is not one the contract documents
    for its request (then the kit is not talking to the billing API)."""
    if exchange.status == 0:
        raise KitError(f"cannot reach the API: {exchange.response_body.decode(errors='replace')}")
    problem = contract_problem(exchange, facts)
    if problem is not None:
        raise KitError(f"{mask(exchange.answered())}{problem}: {NOT_BILLING}")


def contract_problem(exchange: Exchange, facts: ContractFacts) -> str | None:
    """Why the response is not one the contract documents for its request, or None.

    Checked in order: an operation of the contract, a documented status, a documented media
    type, a JSON body, a body valid against the documented schema."""
    operation = facts.matcher.operation_for(exchange.method, exchange.path)
    if operation is None:
        return ", a request the contract does not document"
    spec = operation.responses.get(exchange.status)
    if spec is None:
        return f", a status {operation.operation_id} never answers"
    schema = spec.content.get(exchange.media_type)
    if schema is None:
        documented = " or ".join(sorted(spec.content)) or "no body"
        return f" (the contract answers {documented})"
    if not exchange.is_json():
        return " but the body is not JSON"
    error = next(iter(jsonschema_rs.validator_for(schema).iter_errors(exchange.json())), None)
    if error is None:
        return None
    where = "/" + "/".join(str(part) for part in error.instance_path)
    detail = mask(error.message)
    if len(detail) > MAX_DETAIL_CHARS:
        detail = detail[: MAX_DETAIL_CHARS - 1] + "…"
    return f" but the body is not the documented one (at {where}: {detail})"
