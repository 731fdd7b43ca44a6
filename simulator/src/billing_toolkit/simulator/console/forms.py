"""The console's forms as the admin API's bodies: read bounded, turned into the same
mappings, so the API's own validation (and its messages) decides.

A form field is text; the API's JSON has numbers. `scalar` reads a whole or decimal
number as one and leaves everything else as the text it is, so `times=abc` reaches the rule
parser as `"abc"` and gets the API's "must be a whole number", never a console-only message.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl

import yaml
from starlette.requests import Request

from billing_toolkit.simulator.body import BodyTooLarge, declared_length, read_body
from billing_toolkit.simulator.faults import bounded_yaml

FORM = "application/x-www-form-urlencoded"
RULE_FIELDS = ("kind", "operation", "tenant", "times", "probability", "after_s", "duration_s")
_INTEGER = re.compile(r"^-?\d{1,18}$")
_DECIMAL = re.compile(r"^-?\d{1,18}\.\d{1,18}$")


class FormRefused(Exception):
    """A body that is no form we read: wrong type, too large, not UTF-8."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


async def read_form(request: Request, limit: int) -> dict[str, str]:
    """The fields of a urlencoded body (the first of a repeated name), at most `limit` bytes."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != FORM:
        raise FormRefused(415)
    try:
        raw = await read_body(request.receive, limit, declared_length(request.scope["headers"]))
        pairs = parse_qsl(raw.decode("utf-8"), keep_blank_values=True, errors="strict")
    except BodyTooLarge:
        raise FormRefused(413) from None
    except (UnicodeDecodeError, ValueError):
        raise FormRefused(400) from None
    form: dict[str, str] = {}
    for name, value in pairs:
        form.setdefault(name, value)
    return form


def scalar(text: str) -> Any:
    if _INTEGER.match(text):
        return int(text)
    if _DECIMAL.match(text):
        return float(text)
    return text


def rule_from_form(form: dict[str, str]) -> tuple[dict[str, Any], list[str]]:
    """The rule mapping `addFault` would get, and problems with the free YAML field (named
    like the API names a body field). Empty fields are left out, as a client would."""
    raw: dict[str, Any] = {
        name: scalar(form[name].strip()) for name in RULE_FIELDS if form.get(name, "").strip()
    }
    extra = form.get("extra", "").strip()
    if not extra:
        return raw, []
    try:
        more = bounded_yaml.load(extra)
    except yaml.YAMLError:
        return raw, ["body: the other fields are not valid YAML"]
    if not isinstance(more, dict):
        return raw, ["body: the other fields must be `name: value` lines"]
    return {**{str(key): value for key, value in more.items()}, **raw}, []
