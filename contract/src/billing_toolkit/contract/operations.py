"""The typed operation model: every operation of a contract, built once from its document.

One model for every consumer: the simulator routes and validates with it, the client builds
calls from it, the conformance kit recognises and judges traffic with it. `$ref`s are inlined
here, so each consumer sees plain JSON Schema.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from billing_toolkit.contract.document import ContractError, inline, is_object, load, operations
from billing_toolkit.contract.paths import OPENAPI_PATH
from billing_toolkit.contract.templates import PathTemplate

ParameterLocation = Literal["path", "query", "header", "cookie"]
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter of an operation, by its wire name and location."""

    name: str
    location: ParameterLocation
    required: bool
    schema: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ResponseSpec:
    """One documented response: its body schema per media type and its headers."""

    status: int
    content: dict[str, dict[str, Any]]
    """Media type → body schema."""
    headers: dict[str, tuple[bool, dict[str, Any]]]
    """Header name → (required, schema)."""
    examples: dict[str, dict[str, Any]]
    """Media type → example name → example value (as documented)."""


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation of the contract: what a request to it is and what it may answer."""

    operation_id: str
    method: str
    path: PathTemplate
    parameters: tuple[Parameter, ...]
    body_schema: dict[str, Any] | None
    body_media: str | None
    """Media type of the request body (`application/json` unless the contract says else)."""
    body_required: bool
    responses: dict[int, ResponseSpec]
    requires_auth: bool
    """The operation is under a security requirement (an API key must be presented)."""

    @property
    def writes(self) -> bool:
        """True when the operation may change state (anything but GET/HEAD/OPTIONS)."""
        return self.method not in READ_METHODS

    @property
    def statuses(self) -> frozenset[int]:
        """Every status the contract documents; anything else is a contract violation."""
        return frozenset(self.responses)

    @property
    def success_status(self) -> int:
        """The lowest documented 2xx (what a successful call answers)."""
        return min(status for status in self.responses if 200 <= status < 300)

    def parameter(self, location: str, name: str) -> Parameter | None:
        """The parameter named `name` in `location`, if the operation declares it."""
        for parameter in self.parameters:
            if parameter.location == location and parameter.name == name:
                return parameter
        return None

    def error_codes(self) -> dict[int, str]:
        """Status → the one problem `code` the documented error response's examples carry.

        The contract gives each error response (CustomerNotFound, InvoiceNotFound...) examples
        with one code; that code is what the operation must send for that status. A response
        whose examples carry no single code expects none in particular."""
        codes: dict[int, str] = {}
        for status, spec in self.responses.items():
            if status < 400:
                continue
            found = {
                value.get("code") if is_object(value) else None
                for examples in spec.examples.values()
                for value in examples.values()
            }
            code = found.pop() if len(found) == 1 else None
            if isinstance(code, str):
                codes[status] = code
        return codes


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract document and its operations keyed by operationId, in document order."""

    path: Path
    document: dict[str, Any]
    operations: dict[str, Operation]


def _examples(media: dict[str, Any]) -> dict[str, Any]:
    named = {name: example.get("value") for name, example in media.get("examples", {}).items()}
    if "example" in media:
        named.setdefault("default", media["example"])
    return named


def _response(status: int, response: dict[str, Any]) -> ResponseSpec:
    content = response.get("content", {})
    return ResponseSpec(
        status=status,
        content={media: spec.get("schema", {}) for media, spec in content.items()},
        headers={
            name: (bool(spec.get("required", False)), spec.get("schema", {}))
            for name, spec in response.get("headers", {}).items()
        },
        examples={media: _examples(spec) for media, spec in content.items()},
    )


def build_operation(
    document: dict[str, Any], path: str, method: str, raw: dict[str, Any], shared: list[Any]
) -> Operation:
    """One operation from its raw document node (`shared`: the path item's parameters)."""
    resolved = inline(document, raw)
    parameters = tuple(
        Parameter(p["name"], p["in"], bool(p.get("required", False)), p.get("schema", {}))
        for p in [*inline(document, shared), *resolved.get("parameters", [])]
    )
    body = resolved.get("requestBody")
    body_media = next(iter(body["content"])) if body else None
    body_schema = body["content"][body_media].get("schema", {}) if body and body_media else None
    security = resolved.get("security", document.get("security", []))
    return Operation(
        operation_id=resolved["operationId"],
        method=method.upper(),
        path=PathTemplate(path),
        parameters=parameters,
        body_schema=body_schema,
        body_media=body_media,
        body_required=bool(body and body.get("required", False)),
        responses={
            int(status): _response(int(status), response)
            for status, response in resolved.get("responses", {}).items()
            if str(status).isdigit()
        },
        requires_auth=bool(security),
    )


def contract_from_document(document: dict[str, Any], path: Path = OPENAPI_PATH) -> Contract:
    """The operation model of a parsed document (pure: tests build contracts from dicts)."""
    table: dict[str, Operation] = {}
    for route, method, raw in operations(document):
        shared = document["paths"][route].get("parameters", [])
        operation = build_operation(document, route, method, raw, shared)
        if operation.operation_id in table:
            raise ContractError(f"operationId {operation.operation_id} is used twice")
        table[operation.operation_id] = operation
    return Contract(path, document, table)


def load_contract(path: Path = OPENAPI_PATH) -> Contract:
    """The contract at `path` (the billing contract by default), parsed once per process
    however the path is spelled."""
    return _load_resolved(Path(path).resolve())


@cache
def _load_resolved(path: Path) -> Contract:
    return contract_from_document(load(path), path)
