"""The journal's body-field filters as a client writes them, checked before any entry is read.

Two spellings, both in one query string: `body.FIELD=VALUE` (WireMock and QA habit; any
number of them, nested fields dotted: `body.amount.value=5`) and the first form,
`body=FIELD=VALUE` (one field). Every one given must hold, so the same field asked with two
different values is refused rather than silently narrowed to one of them. The names after
`body.` are open-ended, so no contract can declare them one by one: the admin handler reads
them from the raw query (`OperationContext.raw_query`). Bias: reject — a filter that cannot
mean anything (`body.=x`, `body..a=x`) is a 400 naming the parameter, never an empty answer
a test would take for "my client sent nothing".
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

BODY_PREFIX = "body."
MAX_BODY_FIELDS = 16
"""Body filters in one query: a test asks for a few fields, not a document."""
MAX_FIELD_PATH = 256
MAX_VALUE = 512
"""As the contract bounds `body=FIELD=VALUE` (512 characters)."""


class JournalQueryError(ValueError):
    """A filter that cannot be applied: `field: message`, as the API's 400 names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field, self.message = field, message


def field_path(path: str, where: str) -> str:
    """`path` if it is a dotted field path (`reference`, `amount.value`), else the error."""
    if not path or len(path) > MAX_FIELD_PATH or any(not part for part in path.split(".")):
        raise JournalQueryError(  # `where` names the path: the message need not repeat it
            where,
            "is not a dotted field path (names joined by single dots, for example reference"
            f" or amount.value; at most {MAX_FIELD_PATH} characters)",
        )
    return path


def as_text(value: Any) -> str:
    """A JSON value as the filters compare it: strings as they are, `true`/`false`/`null`,
    anything else as JSON writes it (`5`, `2.5`); a Decimal as its string."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value) if isinstance(value, Decimal) else json.dumps(value)


def wanted_values(body: Mapping[str, Any], where: str = "body") -> dict[str, str]:
    """The pytest handle's `body={"reference": "INV-7", "amount.value": 5}` checked: dotted
    paths, and values a JSON body can hold as a scalar (a Decimal is written as on the wire)."""
    checked: dict[str, str] = {}
    for path, value in body.items():
        name = f"{where}[{path!r}]"
        if not isinstance(path, str):
            raise JournalQueryError(name, "a field path is a string")
        if not isinstance(value, str | int | float | bool | Decimal) and value is not None:
            raise JournalQueryError(name, "a value is a string, number, boolean or None")
        checked[field_path(path, name)] = as_text(value)
    return checked


def parse_body_filter(text: str, where: str = "query.body") -> dict[str, str]:
    """`reference=INV-7` → `{"reference": "INV-7"}` (the `body=` form: one field)."""
    path, sep, value = text.partition("=")
    if not sep or not path.strip():
        raise JournalQueryError(
            where, f"expected FIELD=VALUE (for example reference=INV-7), got {text!r}"
        )
    return {field_path(path.strip(), where): value}


def body_filters(query: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Every body filter of a query string (pairs as sent): `body=FIELD=VALUE` and each
    `body.FIELD=VALUE`, as one field path → value mapping; other names are not looked at."""
    found: dict[str, str] = {}
    for name, value in query:
        where = f"query.{name}"
        if name == "body":
            given = parse_body_filter(value, where)
        elif name.startswith(BODY_PREFIX):
            if len(value) > MAX_VALUE:
                raise JournalQueryError(where, f"at most {MAX_VALUE} characters")
            given = {field_path(name[len(BODY_PREFIX) :], where): value}
        else:
            continue
        for path, wanted in given.items():
            if found.setdefault(path, wanted) != wanted:
                raise JournalQueryError(
                    where, f"{path!r} is asked for twice with different values (all must hold)"
                )
    if len(found) > MAX_BODY_FIELDS:
        raise JournalQueryError("query.body", f"at most {MAX_BODY_FIELDS} body fields at once")
    return found
