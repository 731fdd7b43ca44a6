"""Reading the contract as plain data: load it, follow its local `$ref`s, visit its operations.

Every consumer that walks the document (the client's code generator, the conformance kit,
the contract's own tests) uses these three helpers, so "what is an operation" and "how is a
reference followed" are decided once.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from contract import OPENAPI_PATH

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def load(path: Path = OPENAPI_PATH) -> dict[str, Any]:
    """The OpenAPI document at `path` (the billing contract by default) as plain data."""
    with path.open(encoding="utf-8") as fh:
        document: dict[str, Any] = yaml.safe_load(fh)
    return document


def pointer_escape(token: str) -> str:
    """One JSON-pointer token (RFC 6901): `/v1/plans` becomes `~1v1~1plans`."""
    return token.replace("~", "~0").replace("/", "~1")


def resolve(document: dict[str, Any], node: Any) -> Any:
    """Follow local `$ref`s until a node that is not a reference (the target, not a copy)."""
    while isinstance(node, dict) and "$ref" in node:
        target: Any = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every (path, method, operation) of the document, in document order."""
    for path, item in document["paths"].items():
        for method in HTTP_METHODS:
            if method in item:
                yield path, method, item[method]
