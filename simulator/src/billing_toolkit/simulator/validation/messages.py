"""What both validation engines take in and give back.

A request is described once (`IncomingRequest`), whichever engine checks it; a rejection
names each offending field the way the contract's `FieldError.field` documents it
(`query.limit`, `path.accountNumber`, `header.Idempotency-Key`, `body.amount`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol

from billing_toolkit.contract.operations import Parameter


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


_NONE: Mapping[str, Any] = MappingProxyType({})
"""The parameters of a location a request has none in: shared, so read-only."""


class ValidatedRequest(NamedTuple):
    """Parameters cast to their schema types, defaults filled in, body parsed (a NamedTuple,
    like `IncomingRequest`: a frozen dataclass's `__init__` was half of the fast engine's
    whole request check)."""

    path: Mapping[str, Any] = _NONE
    query: Mapping[str, Any] = _NONE
    header: Mapping[str, Any] = _NONE
    body: Any = None


class OutgoingResponse(NamedTuple):
    """A response on its way out, as both engines check it (`parsed`: the object `body`
    was serialised from, when the caller has it — saves the fast engine a JSON parse)."""

    status: int
    headers: Mapping[str, str]
    media_type: str
    body: bytes
    parsed: Any = None


_INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")


def cast_parameter(parameter: Parameter, raw: str) -> tuple[Any, str | None]:
    """A query, path or header string to its schema's type. An integer is written plainly
    (`1`, not ` 1`, `01`, `1.0` or `1\\n`): Python's `int()` would take more than the
    contract's integers, so both engines refuse what it alone would accept."""
    if parameter.schema.get("type") == "integer":
        if not _INTEGER.fullmatch(raw):
            return raw, f"{raw!r} is not an integer"
        return int(raw), None
    return raw, None


def integer_problems(parameters: Sequence[Parameter], request: IncomingRequest) -> list[FieldError]:
    """`cast_parameter`'s verdict on every integer parameter the request gives."""
    sources = {"path": request.path_params, "header": request.headers}
    problems = []
    for parameter in parameters:
        if parameter.schema.get("type") != "integer":
            continue
        if parameter.location == "query":
            raw = next((v for name, v in request.query if name == parameter.name), None)
        else:
            raw = sources.get(parameter.location, {}).get(parameter.name)
        if raw is not None and (problem := cast_parameter(parameter, raw)[1]) is not None:
            problems.append(FieldError(f"{parameter.location}.{parameter.name}", problem))
    return problems


def repeated_parameters(request: IncomingRequest) -> list[FieldError]:
    """A query parameter given more than once: refused by both engines.

    Every query parameter of the contract is a scalar (`style: form`, no arrays), so
    `?limit=1&limit=500` has no meaning the contract gives it; taking the first or the last
    silently would let two layers (a proxy, the API) read different requests. Bias: reject.
    """
    if len(request.query) < 2:  # most requests: nothing to count
        return []
    seen: dict[str, int] = {}
    for name, _ in request.query:
        seen[name] = seen.get(name, 0) + 1
    return [FieldError(f"query.{name}", "must be given once") for name, n in seen.items() if n > 1]


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
        self, operation_id: str, request: IncomingRequest, response: OutgoingResponse
    ) -> None:
        """Raise `ContractViolation` when the response breaks the contract."""
        ...
