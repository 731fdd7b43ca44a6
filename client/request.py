"""Build the HTTP request of one call, after checking its arguments against the contract.

Arguments are validated with the operation's generated `<OperationId>Parameters` model
(and the body with its generated model) before anything is sent, so every request the
client builds is one the contract allows; a bad argument is a local `ValidationError`
(a business "no", with the same `errors` shape the API would have answered with).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

import httpx
import pydantic

from client.errors import FieldProblem, ValidationError
from client.operation import Operation

USER_AGENT = "billing-toolkit-client/0.1"


def _wire_names(operation: Operation) -> dict[str, str]:
    """Python field name (and wire name) -> wire name, for the parameters model."""
    model = operation.parameters_model
    names = {p.name: p.name for p in operation.parameters}
    if model is not None:
        names.update({field: info.alias or field for field, info in model.model_fields.items()})
    return names


def _field_problems(
    operation: Operation, exc: pydantic.ValidationError, prefix: str | None
) -> list[FieldProblem]:
    """The API's way of naming a bad field (`path.accountNumber`, `body.amount`)."""
    wire_names = _wire_names(operation)
    locations = {p.name: p.location for p in operation.parameters}
    problems = []
    for err in exc.errors():
        head, *rest = [str(part) for part in err["loc"]] or ["<arguments>"]
        wire = wire_names.get(head, head)
        where = prefix or locations.get(wire, "arguments")
        problems.append(FieldProblem(".".join([where, wire, *rest]), err["msg"]))
    return problems


def _invalid(operation: Operation, problems: list[FieldProblem]) -> ValidationError:
    summary = "; ".join(f"{p.field}: {p.message}" for p in problems)
    return ValidationError(
        f"invalid arguments for {operation.operation_id}: {summary}",
        errors=problems,
        operation_id=operation.operation_id,
    )


def wire_parameters(operation: Operation, arguments: Mapping[str, Any]) -> dict[str, str]:
    """The call's parameters by wire name, validated; omitted and None arguments are left out."""
    model = operation.parameters_model
    if model is None:
        if arguments:
            raise TypeError(f"{operation.operation_id} takes no arguments")
        return {}
    try:
        params = model.model_validate(dict(arguments))
    except pydantic.ValidationError as exc:
        raise _invalid(operation, _field_problems(operation, exc, None)) from None
    dumped = params.model_dump(mode="json", by_alias=True, exclude_unset=True, exclude_none=True)
    return {name: str(value) for name, value in dumped.items()}


LOOKUP_KEYS = ("phone", "national_id", "account_number")


def lookup_arguments(arguments: Mapping[str, str | None]) -> dict[str, str]:
    """`lookupCustomer` takes exactly one of phone, national_id and account_number.

    The contract states this rule in prose (its schema cannot), and the API answers any other
    combination with `400`; checking it here keeps the promise that the client never sends a
    request the contract refuses.
    """
    given = {k: v for k, v in arguments.items() if k in LOOKUP_KEYS and v is not None}
    if len(given) != 1:
        problem = FieldProblem("query", f"exactly one of {', '.join(LOOKUP_KEYS)} is required")
        raise ValidationError(
            f"invalid arguments for lookupCustomer: {problem.message}",
            errors=[problem],
            operation_id="lookupCustomer",
        )
    return given


def wire_body(operation: Operation, body: Mapping[str, Any] | None) -> bytes | None:
    """The JSON body, validated by the operation's body model (money as decimal strings)."""
    if operation.body_model is None:
        if body is not None:
            raise TypeError(f"{operation.operation_id} takes no body")
        return None
    try:
        model = operation.body_model.model_validate(dict(body or {}))
    except pydantic.ValidationError as exc:
        raise _invalid(operation, _field_problems(operation, exc, "body")) from None
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
    operation: Operation,
    *,
    api_key: str,
    arguments: Mapping[str, Any],
    body: Mapping[str, Any] | None = None,
) -> PreparedRequest:
    """The request for `operation`; raises `ValidationError` before sending anything bad."""
    wire = wire_parameters(operation, arguments)
    content = wire_body(operation, body)
    located = {p.name: p.location for p in operation.parameters}
    path = operation.path.format(
        **{n: quote(v, safe="") for n, v in wire.items() if located[n] == "path"}
    )
    query = urlencode({n: v for n, v in wire.items() if located[n] == "query"}, quote_via=quote)
    headers = {"Accept": "application/json", "User-Agent": USER_AGENT}
    headers.update({n: v for n, v in wire.items() if located[n] == "header"})
    if operation.authenticated:
        headers["Authorization"] = f"Bearer {api_key}"
    if content is not None:
        headers["Content-Type"] = "application/json"
    return PreparedRequest(operation.method, f"{path}?{query}" if query else path, headers, content)
