"""One way to read a schema for comparison, so equivalent spellings never show up as changes.

OpenAPI 3.1 writes "a string or null" as `type: [string, 'null']`, as
`anyOf: [{type: string}, {type: 'null'}]` or as `oneOf` of the same (3.0 wrote
`nullable: true`); `const: x` is `enum: [x]`. `normalize` folds them into one form (a `type`
list that may hold `null`), so moving between spellings is no change at all: the known false
positive of schema diff tools. Bias: fold only what is provably equivalent; any other
composition is compared branch by branch.
"""

from __future__ import annotations

import json
from typing import Any

NULL = "null"
COMPOSITIONS = ("anyOf", "oneOf")


def _is_null_branch(branch: Any) -> bool:
    if not isinstance(branch, dict):
        return False
    if branch.get("const", ...) is None or branch.get("enum") == [None]:
        return True
    return types_of(branch) == frozenset({NULL})


def types_of(schema: dict[str, Any]) -> frozenset[str] | None:
    """The JSON types a schema admits, None when it does not say (any type)."""
    declared = schema.get("type")
    if declared is None:
        return None
    found = {declared} if isinstance(declared, str) else {str(item) for item in declared}
    if schema.get("nullable") is True:
        found.add(NULL)
    return frozenset(found)


def normalize(schema: Any) -> dict[str, Any]:
    """`schema` with nullability folded into `type` and `const` into `enum` (a new dict)."""
    if not isinstance(schema, dict):
        return {}
    result = {key: value for key, value in schema.items() if key != "nullable"}
    declared = types_of(schema)
    if declared is not None:
        result["type"] = sorted(declared)
    if "const" in result:
        result["enum"] = [result.pop("const")]
    for keyword in COMPOSITIONS:
        branches = result.get(keyword)
        if not isinstance(branches, list):
            continue
        kept = [branch for branch in branches if not _is_null_branch(branch)]
        if len(kept) == 1 and len(kept) < len(branches):
            del result[keyword]
            folded = normalize(kept[0])
            inner = types_of(folded)
            merged = {**result, **folded}
            if inner is not None:
                merged["type"] = sorted(inner | {NULL})
            return normalize(merged)
    return result


def enum_values(schema: dict[str, Any]) -> dict[str, Any] | None:
    """Canonical JSON text → value of each enum member, None when the schema has no enum."""
    values = schema.get("enum")
    if not isinstance(values, list):
        return None
    return {json.dumps(value, sort_keys=True): value for value in values}


def properties_of(schema: dict[str, Any]) -> dict[str, Any]:
    properties = schema.get("properties")
    return properties if isinstance(properties, dict) else {}


def required_of(schema: dict[str, Any]) -> frozenset[str]:
    required = schema.get("required")
    return (
        frozenset(item for item in required if isinstance(item, str))
        if isinstance(required, list)
        else frozenset()
    )


def is_closed(schema: dict[str, Any]) -> bool:
    """True when the object refuses properties it does not list (`additionalProperties: false`
    or `unevaluatedProperties: false`)."""
    return (
        schema.get("additionalProperties") is False or schema.get("unevaluatedProperties") is False
    )


def same_shape(old: Any, new: Any) -> bool:
    """True when two schemas are equal once normalized, descriptions and examples aside (how a
    rename is recognised: a property gone and one added with the same shape)."""
    return _shape(old) == _shape(new)


_PROSE = frozenset({"description", "summary", "title", "example", "examples", "default"})
SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "dependentSchemas"})
"""Keywords whose value maps names to subschemas (a property may be *called* `type`)."""
SCHEMA_LISTS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
SCHEMA_ONE = frozenset(
    {"items", "additionalProperties", "not", "contains", "if", "then", "else", "propertyNames"}
)


def _shape(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return schema
    shape: dict[str, Any] = {}
    for key, value in normalize(schema).items():
        if key in _PROSE or key.startswith("x-"):
            continue
        if key in SCHEMA_MAPS and isinstance(value, dict):
            shape[key] = {name: _shape(sub) for name, sub in value.items()}
        elif key in SCHEMA_LISTS and isinstance(value, list):
            shape[key] = [_shape(sub) for sub in value]
        else:
            shape[key] = _shape(value) if key in SCHEMA_ONE else value
    return shape
