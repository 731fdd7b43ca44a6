"""Small helpers to walk an OpenAPI document: resolve local `$ref`s and visit operations."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def pointer_escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def resolve(spec: dict[str, Any], node: Any) -> Any:
    """Follow local `$ref`s until a node that is not a reference."""
    while isinstance(node, dict) and "$ref" in node:
        target: Any = spec
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every (path, method, operation) of the document."""
    for path, item in spec["paths"].items():
        for method in HTTP_METHODS:
            if method in item:
                yield path, method, item[method]


def responses(spec: dict[str, Any]) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """Every (path, method, status, resolved response) of the document."""
    for path, method, op in operations(spec):
        for status, response in op["responses"].items():
            yield path, method, status, resolve(spec, response)
