"""Judge one HTTP answer against the contract: a parsed model, or the error it stands for.

Pure functions of (operation, status, headers, body), so every rule here is tested without a
network. The bias is to reject: whatever the contract does not promise (an undeclared
status, a body that does not parse strictly, a problem whose `code` does not fit its
status, a 404 that is not problem+json) is a `ContractViolationError`, an outage, never a
business answer. A proxy's HTML 404 must not tell a subscriber their invoice does not exist.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import pydantic

from billing_toolkit.client import errors
from billing_toolkit.client.models.billing import Problem
from billing_toolkit.client.operation import ClientOperation, M

JSON = "application/json"
PROBLEM_JSON = "application/problem+json"

BUSINESS_CODES: Mapping[str, tuple[type[errors.BusinessError], frozenset[int]]] = {
    "customer_not_found": (errors.CustomerNotFoundError, frozenset({404})),
    "invoice_not_found": (errors.InvoiceNotFoundError, frozenset({404})),
    "not_found": (errors.NotFoundError, frozenset({404})),
    "validation_error": (errors.ValidationError, frozenset({400, 422})),
    "idempotency_conflict": (errors.IdempotencyConflictError, frozenset({409})),
    "unauthorized": (errors.AuthenticationError, frozenset({401})),
}
"""Each business code, the error it raises and the statuses the contract pairs it with."""


@dataclass(frozen=True, slots=True)
class RawResponse:
    """An answer as received: status, headers (case-insensitive mapping) and the whole body."""

    status: int
    headers: Mapping[str, str]
    body: bytes


def media_type(headers: Mapping[str, str]) -> str:
    return headers.get("content-type", "").split(";", 1)[0].strip().lower()


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """The `Retry-After` delay in seconds (the contract sends an integer); None if unusable."""
    raw = headers.get("retry-after")
    if raw is None:
        return None
    try:
        seconds = float(raw.strip())
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def describe_validation(exc: pydantic.ValidationError) -> str:
    """Where and how a body failed, without echoing its values (they hold identifiers)."""
    parts = [
        f"{'.'.join(str(p) for p in err['loc']) or '<body>'}: {err['type']}"
        for err in exc.errors()[:5]
    ]
    more = exc.error_count() - len(parts)
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def _is_undecodable(exc: pydantic.ValidationError) -> bool:
    return any(err["type"] == "json_invalid" for err in exc.errors())


def decode(operation: ClientOperation[M], raw: RawResponse) -> M:
    """The operation's success model, or raise the `BillingError` this answer stands for."""
    contract = operation.contract
    request_id = raw.headers.get("x-request-id")
    context: errors.ErrorContext = {
        "status": raw.status,
        "request_id": request_id,
        "operation_id": contract.operation_id,
    }
    if raw.status not in contract.statuses:
        raise errors.ContractViolationError(
            f"status {raw.status} is not declared for {contract.operation_id}", **context
        )
    if raw.status != contract.success_status:
        raise error_for(contract.operation_id, raw)
    if media_type(raw.headers) != JSON:
        raise errors.MalformedResponseError(
            f"expected {JSON}, got {media_type(raw.headers) or 'no content type'}", **context
        )
    model = operation.response_model
    try:
        parsed = model.model_validate_json(raw.body, strict=True)
    except pydantic.ValidationError as exc:
        if _is_undecodable(exc):
            raise errors.MalformedResponseError(
                f"body is not valid JSON ({len(raw.body)} bytes)", **context
            ) from None
        raise errors.ContractViolationError(
            f"body does not match {model.__name__}: {describe_validation(exc)}", **context
        ) from None
    if not request_id:
        raise errors.ContractViolationError("the X-Request-Id header is missing", **context)
    return parsed


def _problem(raw: RawResponse) -> Problem | None:
    if media_type(raw.headers) != PROBLEM_JSON:
        return None
    try:
        return Problem.model_validate_json(raw.body, strict=True)
    except pydantic.ValidationError:
        return None


def error_for(operation_id: str, raw: RawResponse) -> errors.BillingError:
    """The error a declared non-success answer stands for.

    5xx and 429 are infrastructure whatever their body says (a gateway's HTML 502 is still a
    502, and still worth a retry). A 4xx is a business answer only when it is a well-formed
    problem whose business `code` fits its status; anything else is a contract violation.
    """
    problem = _problem(raw)
    request_id = (problem.request_id if problem else None) or raw.headers.get("x-request-id")
    context: errors.ErrorContext = {
        "status": raw.status,
        "request_id": request_id,
        "operation_id": operation_id,
    }
    message = (problem.detail or problem.title) if problem else f"HTTP {raw.status}"
    code = problem.code.value if problem else None
    if raw.status == 429:
        return errors.RateLimitError(
            message, retry_after=retry_after_seconds(raw.headers), **context
        )
    if raw.status >= 500:
        return errors.ServerError(
            message, code=code, retry_after=retry_after_seconds(raw.headers), **context
        )
    if problem is None:
        return errors.ContractViolationError(
            f"HTTP {raw.status} without a valid problem+json body", **context
        )
    known = BUSINESS_CODES.get(problem.code.value)
    if known is None or raw.status not in known[1]:
        return errors.ContractViolationError(
            f"problem code {problem.code.value} does not fit status {raw.status}", **context
        )
    error_type, _ = known
    if error_type is errors.ValidationError:
        fields = [errors.FieldProblem(e.field, e.message) for e in problem.errors or ()]
        return errors.ValidationError(message, errors=fields, code=code, **context)
    return error_type(message, code=code, **context)
