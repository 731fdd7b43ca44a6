"""The one gate a JSON request body passes before either engine looks at it.

`orjson` parses strictly: invalid UTF-8, a lone surrogate (`"\\ud800"`, which no UTF-8
response or state file could hold), `NaN` and numbers that overflow a double are refused
at the door instead of failing later, after money moved. The nesting depth is then
bounded: the contract's bodies are a few levels deep, while JSON Schema validators recurse
per level (jsonschema-rs stops at 256, Python at about 1000) and would crash on more.
Bias: reject — a body no contract schema describes is never worth the risk.
"""

from __future__ import annotations

from typing import Any

import orjson

from billing_toolkit.simulator.validation.messages import FieldError

MAX_DEPTH = 32
"""Nesting levels a body may have (the contract's deepest body has two)."""


def _too_deep(value: Any, limit: int) -> bool:
    """Whether `value` nests more than `limit` levels (iterative: no recursion to exhaust)."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        if children and depth >= limit:
            return True
        pending.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def parse_json_body(raw: bytes) -> tuple[Any, FieldError | None]:
    """The parsed body, or the error that names why it cannot be accepted."""
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        reason = str(error).split(":", 1)[0]
        if "depth" in reason:  # orjson's own ceiling (1024) is past ours
            return None, FieldError("body", f"nests deeper than {MAX_DEPTH} levels")
        return None, FieldError("body", f"is not valid JSON ({reason})")
    if _too_deep(body, MAX_DEPTH):
        return None, FieldError("body", f"nests deeper than {MAX_DEPTH} levels")
    return body, None
