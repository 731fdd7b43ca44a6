"""The contract read once at start-up: operations, their parameters, bodies and responses.

`$ref`s are resolved here so every consumer (the route table, the compiled validators, the
fault catalogue's "which operations have a 404") sees plain JSON Schema. Only local
references exist in our documents; a remote one is a contract error, raised at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


class ContractError(ValueError):
    """The contract cannot be served as written."""


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    location: str
    """`path`, `query` or `header`."""
    required: bool
    schema: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ResponseSpec:
    status: int
    content: dict[str, dict[str, Any]]
    """Media type → body schema."""
    headers: dict[str, tuple[bool, dict[str, Any]]]
    """Header name → (required, schema)."""


@dataclass(frozen=True, slots=True)
class Operation:
    operation_id: str
    method: str
    path: str
    parameters: tuple[Parameter, ...]
    body_schema: dict[str, Any] | None
    body_media: str | None
    """Media type of the request body (`application/json` unless the contract says else)."""
    body_required: bool
    responses: dict[int, ResponseSpec]
    secured: bool

    def parameter(self, location: str, name: str) -> Parameter | None:
        for parameter in self.parameters:
            if parameter.location == location and parameter.name == name:
                return parameter
        return None


@dataclass(frozen=True, slots=True)
class Contract:
    path: Path
    document: dict[str, Any]
    operations: dict[str, Operation]


def _resolve(document: dict[str, Any], node: Any) -> Any:
    """A deep copy of `node` with every local `$ref` replaced by its target."""
    if isinstance(node, dict):
        if "$ref" in node:
            reference = node["$ref"]
            if not isinstance(reference, str) or not reference.startswith("#/"):
                raise ContractError(f"only local references are supported, got {reference!r}")
            target: Any = document
            for part in reference[2:].split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            siblings = {key: value for key, value in node.items() if key != "$ref"}
            resolved = _resolve(document, target)
            return {**resolved, **_resolve(document, siblings)} if siblings else resolved
        return {key: _resolve(document, value) for key, value in node.items()}
    if isinstance(node, list):
        return [_resolve(document, item) for item in node]
    return node


def _operation(
    document: dict[str, Any], path: str, method: str, raw: dict[str, Any], shared: list[Any]
) -> Operation:
    resolved = _resolve(document, raw)
    parameters = tuple(
        Parameter(p["name"], p["in"], bool(p.get("required", False)), p.get("schema", {}))
        for p in [*_resolve(document, shared), *resolved.get("parameters", [])]
    )
    body = resolved.get("requestBody")
    body_media = next(iter(body["content"])) if body else None
    body_schema = body["content"][body_media].get("schema", {}) if body and body_media else None
    responses = {}
    for status, response in resolved.get("responses", {}).items():
        responses[int(status)] = ResponseSpec(
            status=int(status),
            content={
                media: spec.get("schema", {}) for media, spec in response.get("content", {}).items()
            },
            headers={
                name: (bool(spec.get("required", False)), spec.get("schema", {}))
                for name, spec in response.get("headers", {}).items()
            },
        )
    security = resolved.get("security", document.get("security", []))
    return Operation(
        operation_id=resolved["operationId"],
        method=method.upper(),
        path=path,
        parameters=parameters,
        body_schema=body_schema,
        body_media=body_media,
        body_required=bool(body and body.get("required", False)),
        responses=responses,
        secured=bool(security),
    )


@cache
def load_contract(path: Path) -> Contract:
    """Parse an OpenAPI document into operations keyed by operationId (cached per path)."""
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    operations: dict[str, Operation] = {}
    for route, item in document.get("paths", {}).items():
        for method in HTTP_METHODS:
            if method not in item:
                continue
            operation = _operation(
                document, route, method, item[method], item.get("parameters", [])
            )
            if operation.operation_id in operations:
                raise ContractError(f"operationId {operation.operation_id} is used twice")
            operations[operation.operation_id] = operation
    return Contract(path, document, operations)
