"""Replies and RFC 9457 problems, with the contract's stable codes.

Handlers return a `Reply`; the endpoint adds `request_id`/`instance`, serialises and checks
it against the contract. "Not yours" and "does not exist" are built by the same function,
so a tenant can never tell them apart, down to the byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from billing_toolkit.simulator.validation.messages import FieldError

JSON = "application/json"
PROBLEM = "application/problem+json"
PROBLEM_BASE = "https://billing.example.com/problems/"

TITLES = {
    "customer_not_found": "Customer not found",
    "invoice_not_found": "Invoice not found",
    "not_found": "Not found",
    "validation_error": "Invalid request",
    "idempotency_conflict": "Idempotency key reused",
    "unauthorized": "Unauthorized",
    "unavailable": "Service unavailable",
    "rate_limited": "Too many requests",
    "internal": "Internal error",
}


QUOTE_LIMIT = 200
"""Characters of client text an error message may carry: a 5 MB field is named, not echoed."""


def capped(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` cut to `limit` characters, an ellipsis saying it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(slots=True)
class Reply:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)
    media_type: str = JSON


def problem(
    status: int,
    code: str,
    detail: str,
    *,
    title: str | None = None,
    errors: list[FieldError] | None = None,
    headers: dict[str, str] | None = None,
) -> Reply:
    body: dict[str, Any] = {
        "type": PROBLEM_BASE + code,
        "title": title or TITLES[code],
        "status": status,
        "detail": capped(detail),
        "code": code,
    }
    if errors:
        body["errors"] = [{"field": capped(e.field), "message": capped(e.message)} for e in errors]
    return Reply(status, body, headers or {}, PROBLEM)


def invalid(errors: list[FieldError], status: int = 400) -> Reply:
    """400 (malformed) or 422 (well-formed, unacceptable); `detail` names the first field."""
    first = errors[0]
    return problem(status, "validation_error", f"{first.field}: {first.message}", errors=errors)


def too_large(limit: int) -> Reply:
    """413: the body passed the configured limit (it was not read further)."""
    error = FieldError("body", f"is larger than the limit of {limit} bytes")
    return problem(
        413, "validation_error", f"body: {error.message}", title="Payload too large", errors=[error]
    )


def customer_not_found() -> Reply:
    return problem(404, "customer_not_found", "No customer matches.")


def invoice_not_found() -> Reply:
    return problem(404, "invoice_not_found", "No invoice has this number.")


def unauthorized(detail: str = "A valid bearer API key is required.") -> Reply:
    return problem(
        401, "unauthorized", detail, headers={"WWW-Authenticate": 'Bearer realm="billing"'}
    )


def idempotency_conflict() -> Reply:
    return problem(
        409, "idempotency_conflict", "This Idempotency-Key was used with a different request body."
    )


INFRASTRUCTURE = {
    500: ("internal", "Internal error", "An unexpected error occurred."),
    502: ("unavailable", "Bad gateway", "A gateway could not reach the billing system."),
    503: ("unavailable", "Service unavailable", "The billing system is temporarily unavailable."),
    504: ("unavailable", "Gateway timeout", "The billing system did not answer in time."),
    429: ("rate_limited", "Too many requests", "Rate limit exceeded; retry later."),
}


def infrastructure(status: int, retry_after_s: int | None = None) -> Reply:
    """An outage answer (5xx/429), with `Retry-After` where the contract requires it."""
    code, title, detail = INFRASTRUCTURE[status]
    headers = {"Retry-After": str(int(retry_after_s))} if retry_after_s is not None else {}
    return problem(status, code, detail, title=title, headers=headers)
