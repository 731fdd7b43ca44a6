"""What both validation engines take in and give back.

A request is described once (`IncomingRequest`), whichever engine checks it; a rejection
names each offending field the way the contract's `FieldError.field` documents it
(`query.limit`, `path.accountNumber`, `header.Idempotency-Key`, `body.amount`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol


@dataclass(frozen=True, slots=True)
class FieldError:
    field: str
    message: str


class IncomingRequest(NamedTuple):
    """A request as the simulator received it (a NamedTuple rather than a frozen dataclass:
    one is built per request, and a frozen dataclass's `__init__` costs three times more)."""

    method: str
    path: str
    path_params: Mapping[str, str]
    query: list[tuple[str, str]]
    headers: Mapping[str, str]
    """Case-insensitive (Starlette `Headers`)."""
    content_type: str
    body: bytes


@dataclass(frozen=True, slots=True)
class ValidatedRequest:
    """Parameters cast to their schema types, defaults filled in, body parsed."""

    path: dict[str, Any] = field(default_factory=dict)
    query: dict[str, Any] = field(default_factory=dict)
    header: dict[str, Any] = field(default_factory=dict)
    body: Any = None


class RequestRejected(Exception):
    """The request breaks the contract; `errors` says where."""

    def __init__(self, errors: list[FieldError]) -> None:
        super().__init__("; ".join(f"{e.field}: {e.message}" for e in errors))
        self.errors = errors


class ContractViolation(AssertionError):
    """A response the simulator was about to send breaks the contract: a simulator bug."""

    def __init__(self, operation_id: str, status: int, problems: list[str]) -> None:
        super().__init__(f"{operation_id} {status} breaks the contract: " + "; ".join(problems))
        self.operation_id, self.status, self.problems = operation_id, status, problems


class ContractValidator(Protocol):
    """One engine: openapi-core (the reference) or compiled JSON Schema (the fast path)."""

    name: str

    def validate_request(self, operation_id: str, request: IncomingRequest) -> ValidatedRequest:
        """Raise `RequestRejected` naming each bad field."""
        ...

    def validate_response(
        self,
        operation_id: str,
        request: IncomingRequest,
        status: int,
        headers: Mapping[str, str],
        content_type: str,
        body: bytes,
        parsed: Any = None,
    ) -> None:
        """Raise `ContractViolation` when the response breaks the contract.

        `parsed` is the object `body` was serialised from, when the caller has it (saves
        the fast engine a JSON parse); engines that need bytes ignore it.
        """
        ...
