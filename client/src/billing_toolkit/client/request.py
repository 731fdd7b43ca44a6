"""Build the HTTP request of one call, after checking its arguments against the contract.

Arguments arrive by their wire names (`accountNumber`, `Idempotency-Key`: the names the
contract gives them, which the generated models accept as aliases) and are validated with the
operation's generated `<OperationId>Parameters` model (and the body with its generated model)
before anything is sent, so every request the client builds is one the contract allows; a bad
argument is a local `ValidationError` (a business "no", with the same `errors` shape the API
would have answered with). Where each argument goes (path, query, header), the path template
and whether the API key is sent all come from the contract kernel's operation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

import httpx
import pydantic

from billing_toolkit.client.errors import FieldProblem, ValidationError
from billing_toolkit.client.operation import ClientOperation

USER_AGENT = "billing-toolkit-client/0.1"

Arguments = Mapping[str, Any]
"""A call's arguments by the names the contract gives them (`accountNumber`, `Idempotency-Key`)."""
Body = Mapping[str, Any] | None
"""A request body's fields by name, or None for an operation that takes no body."""


def _wire_names(operation: ClientOperation[Any]) -> dict[str, str]:
    """Python field name (and wire name) -> wire name, for the parameters model."""
    model = operation.parameters_model
    names = {p.name: p.name for p in operation.contract.parameters}
    if model is not None:
        names.update({field: info.alias or field for field, info in model.model_fields.items()})
    return names


def _field_problems(
    operation: ClientOperation[Any], exc: pydantic.ValidationError, prefix: str | None
) -> list[FieldProblem]:
    """The API's way of naming a bad field (`path.accountNumber`, `body.amount`)."""
    wire_names = _wire_names(operation)
    locations: dict[str, str] = {p.name: p.location for p in operation.contract.parameters}
    problems: list[FieldProblem] = []
    for err in exc.errors():
        head, *rest = [str(part) for part in err["loc"]] or ["<arguments>"]
        wire = wire_names.get(head, head)
        where = prefix or locations.get(wire, "arguments")
        problems.append(FieldProblem(".".join([where, wire, *rest]), err["msg"]))
    return problems


def _invalid(operation_id: str, problems: list[FieldProblem]) -> ValidationError:
    summary = "; ".join(f"{p.field}: {p.message}" for p in problems)
    return ValidationError(
        f"invalid arguments for {operation_id}: {summary}",
        errors=problems,
        operation_id=operation_id,
    )


def wire_parameters(operation: ClientOperation[Any], arguments: Arguments) -> dict[str, str]:
    """The call's parameters by wire name, validated; omitted and None arguments are left out."""
    model = operation.parameters_model
    operation_id = operation.contract.operation_id
    if model is None:
        if arguments:
            raise TypeError(f"{operation_id} takes no arguments")
        return {}
    try:
        params = model.model_validate(dict(arguments))
    except pydantic.ValidationError as exc:
        raise _invalid(operation_id, _field_problems(operation, exc, None)) from None
    dumped = params.model_dump(mode="json", by_alias=True, exclude_unset=True, exclude_none=True)
    return {name: str(value) for name, value in dumped.items()}


EXACTLY_ONE_OF: Mapping[str, tuple[str, ...]] = {
    "lookupCustomer": ("phone", "national_id", "account_number"),
}
"""Operations that take exactly one of these arguments (by wire name).

The contract states this rule in prose (its schema cannot), and the API answers any other
combination with `400`; checking it here keeps the promise that the client never sends a
request the contract refuses."""


def check_exactly_one(operation: ClientOperation[Any], arguments: Arguments) -> None:
    """Raise `ValidationError` unless exactly one of the operation's alternatives is given."""
    operation_id = operation.contract.operation_id
    keys = EXACTLY_ONE_OF.get(operation_id)
    if keys is None or sum(arguments.get(key) is not None for key in keys) == 1:
        return
    where = next(p.location for p in operation.contract.parameters if p.name in keys)
    problem = FieldProblem(where, f"exactly one of {', '.join(keys)} is required")
    raise ValidationError(
        f"invalid arguments for {operation_id}: {problem.message}",
        errors=[problem],
        operation_id=operation_id,
    )


def wire_body(operation: ClientOperation[Any], body: Body) -> bytes | None:
    """The JSON body, validated by the operation's body model (money as decimal strings)."""
    operation_id = operation.contract.operation_id
    if operation.body_model is None:
        if body is not None:
            raise TypeError(f"{operation_id} takes no body")
        return None
    try:
        model = operation.body_model.model_validate(dict(body or {}))
    except pydantic.ValidationError as exc:
        raise _invalid(operation_id, _field_problems(operation, exc, "body")) from None
    return model.model_dump_json(by_alias=True, exclude_none=True).encode("utf-8")


@dataclass(frozen=True, slots=True)
class PreparedRequest:
    """A validated request, not yet an `httpx.Request`.

    Turning it into one (URL parsing, header normalisation) is the costly part, so the call
    flow does it only once the breaker admits the call: an open circuit fails in
    microseconds, not in the time it takes to build a request it will never send.
    """

    method: str
    target: str
    headers: Mapping[str, str]
    content: bytes | None

    def to_httpx(self, base_url: str) -> httpx.Request:
        """The request against `base_url` (scheme, host and any path prefix, no trailing /)."""
        return httpx.Request(
            self.method, base_url + self.target, headers=self.headers, content=self.content
        )


def prepare_request(
    operation: ClientOperation[Any],
    *,
    api_key: str,
    arguments: Arguments,
    body: Body = None,
) -> PreparedRequest:
    """The request for `operation`; raises `ValidationError` before sending anything bad."""
    check_exactly_one(operation, arguments)
    wire = wire_parameters(operation, arguments)
    content = wire_body(operation, body)
    contract = operation.contract
    located = {p.name: p.location for p in contract.parameters}
    path = contract.path.expand(**{n: v for n, v in wire.items() if located[n] == "path"})
    query = urlencode({n: v for n, v in wire.items() if located[n] == "query"}, quote_via=quote)
    headers = {"Accept": "application/json", "User-Agent": USER_AGENT}
    headers.update({n: v for n, v in wire.items() if located[n] == "header"})
    if contract.requires_auth:
        headers["Authorization"] = f"Bearer {api_key}"
    if content is not None:
        headers["Content-Type"] = "application/json"
    return PreparedRequest(contract.method, f"{path}?{query}" if query else path, headers, content)
