"""Walking two versions of one schema side by side, node for node.

The rules judge a single node; this walk says which nodes are "the same" in both versions:
the root, each property present in both, array items, the value schema of a map, and the
branches of an anyOf/oneOf/allOf when both have as many. Nodes present in one version only
are judged by the parent's property rules (removed, added), not walked. Every node comes
normalized (`schema_view.normalize`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from billing_toolkit.conformance.diff.schema_view import normalize, properties_of

MAX_DEPTH = 64
"""Deeper than any real contract; a bound against a pathological document."""


def _join(path: str, part: str) -> str:
    return f"{path}.{part}" if path and not part.startswith("[") else f"{path}{part}"


def node_pairs(
    old: Any, new: Any, path: str = "", depth: int = 0
) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(path, old node, new node) for the root and every node both versions share."""
    before, after = normalize(old), normalize(new)
    yield path, before, after
    if depth >= MAX_DEPTH:
        return
    for name, schema in properties_of(before).items():
        if name in properties_of(after):
            yield from node_pairs(schema, properties_of(after)[name], _join(path, name), depth + 1)
    for keyword, part in (("items", "[]"), ("additionalProperties", "{*}")):
        if isinstance(before.get(keyword), dict) and isinstance(after.get(keyword), dict):
            yield from node_pairs(before[keyword], after[keyword], _join(path, part), depth + 1)
    for keyword in ("anyOf", "oneOf", "allOf"):
        first, second = before.get(keyword), after.get(keyword)
        if isinstance(first, list) and isinstance(second, list) and len(first) == len(second):
            for index, (one, other) in enumerate(zip(first, second, strict=True)):
                yield from node_pairs(one, other, _join(path, f"<{keyword}[{index}]>"), depth + 1)
