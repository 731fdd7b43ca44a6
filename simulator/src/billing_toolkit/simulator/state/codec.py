"""Dataclasses ↔ JSON-ready values, driven by type hints.

Used for the dataset's canonical bytes (same seed → same bytes), SQLite persistence and
snapshots. Decimals travel as strings, dates and datetimes as ISO 8601, so a round trip is
exact. Decoding is strict: an unexpected shape raises instead of guessing.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from datetime import date, datetime
from decimal import Decimal
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")


_PLAIN = (str, int, float, bool, type(None))


@cache
def _field_names(cls: type) -> tuple[str, ...] | None:
    """A dataclass's field names in order, or None for any other type: looked up once per type,
    because `encode` walks every account of a state (snapshots, persistence and the tests'
    before/after comparisons run it on every write)."""
    if dataclasses.is_dataclass(cls):
        return tuple(field.name for field in dataclasses.fields(cls))
    return None


def encode(value: Any) -> Any:
    """A JSON-ready copy of `value` (dataclasses become dicts in field order)."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    names = _field_names(kind)
    if names is not None:
        return {name: encode(getattr(value, name)) for name in names}
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, dict):
        return {key: encode(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(item) for item in value]
    return value


def dumps(value: Any) -> str:
    """Canonical JSON text: sorted keys, no spaces, so equal states give equal bytes."""
    return json.dumps(encode(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def decode(kind: Any, data: Any) -> Any:
    """Rebuild a value of type `kind` from what `encode` produced."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(kind)
        if data is None and type(None) in options:
            return None
        (inner,) = [option for option in options if option is not type(None)]
        return decode(inner, data)
    if origin is list:
        (item,) = typing.get_args(kind)
        return [decode(item, element) for element in data]
    if origin is dict:
        key_type, item = typing.get_args(kind)
        return {decode(key_type, key): decode(item, element) for key, element in data.items()}
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = _hints(kind)
        return kind(**{name: decode(hints[name], data[name]) for name in data})
    if kind is Decimal:
        return Decimal(data)
    if kind is datetime:
        return datetime.fromisoformat(data)
    if kind is date:
        return date.fromisoformat(data)
    if kind in (str, int, bool, float) and isinstance(data, kind):
        return data
    raise TypeError(f"cannot decode {data!r} as {kind}")


def loads(kind: type[T], text: str) -> T:
    """Inverse of `dumps`."""
    return typing.cast(T, decode(kind, json.loads(text)))
