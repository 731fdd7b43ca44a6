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
    for its request (then the kit is not talking to the billing API).

    A 2xx body that breaks its schema but is recognisably the documented resource (most of
    its properties are documented ones: a customer without its `currency`) is the billing
    API with a bug, not another API: it passes here and the `schema.response` check fails
    it, with the full report (exit 1) instead of a usage error."""
    if exchange.status == 0:
        raise KitError(f"cannot reach the API: {exchange.response_body.decode(errors='replace')}")
    problem = foreign_problem(exchange, facts)
    if problem is None and not _resembles_documented(exchange, facts):
        problem = schema_problem(exchange, facts)
    if problem is not None:
        raise KitError(f"{mask(exchange.answered())}{problem}: {NOT_BILLING}")


def documented_schema(exchange: Exchange, facts: ContractFacts) -> dict[str, Any] | None:
    """The schema the contract documents for this response (operation, status, media type)."""
    operation = facts.matcher.operation_for(exchange.method, exchange.path)
    spec = operation.responses.get(exchange.status) if operation is not None else None
    return spec.content.get(exchange.media_type) if spec is not None else None


def foreign_problem(exchange: Exchange, facts: ContractFacts) -> str | None:
    """Why the response is not even of the shape the contract documents, or None.

    Checked in order: an operation of the contract, a documented status, a documented media
    type, a JSON body."""
    operation = facts.matcher.operation_for(exchange.method, exchange.path)
    if operation is None:
        return ", a request the contract does not document"
    spec = operation.responses.get(exchange.status)
    if spec is None:
        return f", a status {operation.operation_id} never answers"
    if spec.content.get(exchange.media_type) is None:
        documented = " or ".join(sorted(spec.content)) or "no body"
        return f" (the contract answers {documented})"
    if not exchange.is_json():
        return " but the body is not JSON"
    return None


def schema_problem(exchange: Exchange, facts: ContractFacts) -> str | None:
    """Why a documented, JSON response's body breaks its documented schema, or None."""
    schema = documented_schema(exchange, facts)
    if schema is None or not exchange.is_json():
        return None
    error = next(iter(validator(schema).iter_errors(exchange.json())), None)
    if error is None:
        return None
    where = "/" + "/".join(str(part) for part in error.instance_path)
    detail = mask(error.message)
    if len(detail) > MAX_DETAIL_CHARS:
        detail = detail[: MAX_DETAIL_CHARS - 1] + "…"
    return f" but the body is not the documented one (at {where}: {detail})"


_VALIDATORS: dict[int, tuple[dict[str, Any], jsonschema_rs.Validator]] = {}


def validator(schema: dict[str, Any]) -> jsonschema_rs.Validator:
    """The compiled validator of a contract schema, compiled once per schema object (the
    `schema.response` check validates every response of a run)."""
    known = _VALIDATORS.get(id(schema))
    if known is None or known[0] is not schema:
        known = _VALIDATORS[id(schema)] = (
            schema,
            jsonschema_rs.validator_for(schema, validate_formats=True),
        )
    return known[1]


def _resembles_documented(exchange: Exchange, facts: ContractFacts) -> bool:
    """A 2xx object body of which more than half the keys, and at least half the documented
    required properties, are the schema's: the resource, possibly broken."""
    schema = documented_schema(exchange, facts)
    body = exchange.json() if exchange.is_json() else None
    if not 200 <= exchange.status < 300 or schema is None or not isinstance(body, dict) or not body:
        return False
    documented = set(schema.get("properties") or {})
    required = set(schema.get("required") or [])
    known = documented & body.keys()
    return 2 * len(known) > len(body) and 2 * len(known & required) >= len(required)
