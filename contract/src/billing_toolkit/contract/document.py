"""Reading the contract as plain data: load it, follow its local `$ref`s, visit its operations.

Every consumer that walks the document (the operation model, the client's code generator, the
conformance kit, the contract's own tests) uses these helpers, so "what is an operation" and
"how is a reference followed" are decided once. Only local references exist in our documents;
a remote one is a contract error (bias: refuse a document we would only half understand).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeGuard

import yaml

from billing_toolkit.contract.paths import OPENAPI_PATH

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader when PyYAML was built with it (5× faster); same documents, same data."""

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


class ContractError(ValueError):
    """The contract cannot be used as written (a remote `$ref`, an operationId used twice)."""


def is_object(node: object) -> TypeGuard[dict[str, Any]]:
    """Whether a node of the document is a JSON object (YAML keys of our documents are strings)."""
    return isinstance(node, dict)


def is_array(node: object) -> TypeGuard[list[Any]]:
    """Whether a node of the document is a JSON array."""
    return isinstance(node, list)


def load(path: Path = OPENAPI_PATH) -> dict[str, Any]:
    """The OpenAPI document at `path` (the billing contract by default) as plain data."""
    with path.open(encoding="utf-8") as fh:
        document: dict[str, Any] = yaml.load(fh, Loader=_LOADER)
    return document


def parse_shipped_yaml(text: str) -> Any:
    """A YAML file the toolkit ships (the contract, the utterance set), parsed with the fast
    safe loader: a process starting reads several of them, and the pure-Python loader made
    that seconds. Only for files of our own — what a user sends goes through a bounded loader."""
    return yaml.load(text, Loader=_LOADER)


def pointer_escape(token: str) -> str:
    """One JSON-pointer token (RFC 6901): `/v1/plans` becomes `~1v1~1plans`."""
    return token.replace("~", "~0").replace("/", "~1")


def _target(document: dict[str, Any], reference: Any) -> Any:
    if not isinstance(reference, str) or not reference.startswith("#/"):
        raise ContractError(f"only local references are supported, got {reference!r}")
    target: Any = document
    for part in reference[2:].split("/"):
        target = target[part.replace("~1", "/").replace("~0", "~")]
    return target


def resolve(document: dict[str, Any], node: Any) -> Any:
    """Follow local `$ref`s until a node that is not a reference (the target, not a copy)."""
    while is_object(node) and "$ref" in node:
        node = _target(document, node["$ref"])
    return node


def inline(document: dict[str, Any], node: Any) -> Any:
    """A deep copy of `node` with every local `$ref` replaced by its target, so a consumer
    (a schema compiler, a validator) sees plain JSON Schema. Siblings of a `$ref` (3.1 allows
    them) are merged over the target."""
    if is_object(node):
        if "$ref" in node:
            resolved = inline(document, _target(document, node["$ref"]))
            siblings = {key: value for key, value in node.items() if key != "$ref"}
            return {**resolved, **inline(document, siblings)} if siblings else resolved
        return {key: inline(document, value) for key, value in node.items()}
    if is_array(node):
        return [inline(document, item) for item in node]
    return node


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every (path, method, operation) of the document, in document order."""
    for path, item in document.get("paths", {}).items():
        for method in HTTP_METHODS:
            if method in item:
                yield path, method, item[method]
