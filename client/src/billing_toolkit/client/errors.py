"""The two failure families, catchable at the level the caller cares about.

```
BillingError
├── BusinessError            the API worked and said no: an answer, never retried
│   ├── NotFoundError
│   │   ├── CustomerNotFoundError
│   │   └── InvoiceNotFoundError
│   ├── ValidationError      (also raised locally, before sending, for bad arguments)
│   ├── IdempotencyConflictError
│   └── AuthenticationError  (a "no" per the contract, a misconfiguration for the assistant)
└── InfrastructureError      the API did not work: an outage, escalate
    ├── APITimeoutError
    ├── APIConnectionError
    ├── ServerError          (5xx)
    ├── RateLimitError       (429)
    ├── ContractViolationError
    │   └── MalformedResponseError
    └── CircuitOpenError     (failed fast: no request was sent)
```

Every error carries what a log line or an escalation note needs: the problem `code`, the
HTTP `status`, the server's `request_id` and the `operation_id`. None of them carries the
request URL, which holds account and invoice numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict


@dataclass(frozen=True, slots=True)
class FieldProblem:
    """One offending field of a validation error (`query.limit`, `path.accountNumber`...)."""

    field: str
    message: str


class ErrorContext(TypedDict):
    """Where a failure happened, as every `BillingError` takes it (`**context`)."""

    status: int | None
    request_id: str | None
    operation_id: str | None


class BillingError(Exception):
    """Any failure of a billing call."""

    default_code: str = "internal"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        status: int | None = None,
        request_id: str | None = None,
        operation_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.status = status
        self.request_id = request_id
        self.operation_id = operation_id

    def __str__(self) -> str:
        where = f" [{self.operation_id}" if self.operation_id else ""
        if where and self.request_id:
            where += f", request {self.request_id}"
        return f"{self.code}: {self.message}{where + ']' if where else ''}"


class BusinessError(BillingError):
    """The API worked and said no. It is an answer: never retried, never trips the breaker."""


class NotFoundError(BusinessError):
    """Nothing with that identifier in the caller's tenant (another tenant's looks the same)."""

    default_code = "not_found"


class CustomerNotFoundError(NotFoundError):
    default_code = "customer_not_found"


class InvoiceNotFoundError(NotFoundError):
    default_code = "invoice_not_found"


class ValidationError(BusinessError):
    """The request was refused as malformed; `errors` names each offending field."""

    default_code = "validation_error"

    def __init__(
        self, message: str, *, errors: Sequence[FieldProblem] = (), **context: Any
    ) -> None:
        super().__init__(message, **context)
        self.errors = tuple(errors)


class IdempotencyConflictError(BusinessError):
    """The Idempotency-Key was already used with a different payment."""

    default_code = "idempotency_conflict"


class AuthenticationError(BusinessError):
    """Missing or unknown API key.

    The contract files `unauthorized` with the business codes (the API worked and said no),
    so it is never retried and never trips the breaker. For the assistant it still means
    "cannot answer": the capability layer escalates it as a misconfiguration.
    """

    default_code = "unauthorized"


class InfrastructureError(BillingError):
    """The API did not work. `retry_after` is the server's `Retry-After`, when it sent one."""

    default_code = "unavailable"

    def __init__(self, message: str, *, retry_after: float | None = None, **context: Any) -> None:
        super().__init__(message, **context)
        self.retry_after = retry_after


class APITimeoutError(InfrastructureError):
    """No complete answer within the timeouts or the call's total time budget."""


class APIConnectionError(InfrastructureError):
    """The connection failed or broke (refused, reset, closed without a response)."""


class ServerError(InfrastructureError):
    """A 5xx answer."""

    default_code = "internal"


class RateLimitError(InfrastructureError):
    """A 429 answer; `retry_after` says how long the server asked us to wait."""

    default_code = "rate_limited"


class ContractViolationError(InfrastructureError):
    """An answer the contract does not allow: undeclared status, wrong shape, wrong code.

    It is an outage, not a crash and not a half-parsed object: a server that breaks its
    contract cannot be trusted for a figure, so the bias is to escalate.
    """

    default_code = "contract_violation"


class MalformedResponseError(ContractViolationError):
    """An answer that cannot even be decoded: empty, truncated, not JSON."""

    default_code = "malformed_response"


class CircuitOpenError(InfrastructureError):
    """The breaker is open: the call failed fast and nothing was sent."""

    default_code = "circuit_open"
