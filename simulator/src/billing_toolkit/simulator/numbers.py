"""The numbers QA may set — a rule's probability, window and count, a kind's parameters, a
clock step — declared once as pydantic fields and refused in one wording.

A group of settings is a `Settings` model: strict (`"5"` is not 5, `true` is not 1), finite
(no NaN, no infinity), its bounds pydantic's `gt`/`ge`/`le` on `Annotated` fields. `read`
turns pydantic's refusal into the sentence QA sees after the field's name
(`retry_after_s: must be at least 0, got -1`), the same in a 400 of the admin API, a line of a
scenario file, the `X-Sim-Fault` header and the QA console. Bias: refuse anything that is not
plainly the number meant, and name every bad field at once. A field's `description` says
why its bound is there; a refusal of the bound ends with it.

Two shapes, two wordings: a *count* (an `int` field, with both `ge` and `le`: how many
times, how many requests, a seed) is a whole number in a range, said as `[low, high]`; a
*quantity* (a `float` field: seconds, milliseconds, a probability) says the one bound it
broke. A `float` field with `multiple_of=1` is a whole quantity (`retry_after_s`): 2.0 is
accepted, 2.5 is not.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails


class Settings(BaseModel):
    """Strict, finite and frozen. Keys that are not fields are ignored: each caller names
    unknown fields itself, with the vocabulary it knows (`unknown field for http_503`)."""

    model_config = ConfigDict(strict=True, allow_inf_nan=False, frozen=True, extra="ignore")


S = TypeVar("S", bound=Settings)


class SettingsRefused(ValueError):
    """Settings that cannot be used: `problems` is each (field, sentence), in the fields'
    order; the message joins them as `field: sentence; ...`."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(f"{name}: {sentence}" for name, sentence in problems))
        self.problems = problems


def read(model: type[S], raw: Mapping[Any, Any], subject: str = "") -> S:
    """`raw` as `model`, or `SettingsRefused` naming every bad field; a missing required
    field `is required for {subject}`."""
    try:
        return model.model_validate(dict(raw))
    except ValidationError as error:
        problems = []
        for detail in error.errors(include_url=False):
            name = str(detail["loc"][0]) if detail["loc"] else ""
            problems.append((name, _sentence(detail, model.model_fields.get(name), subject)))
        raise SettingsRefused(problems) from None


def _sentence(detail: ErrorDetails, field: FieldInfo | None, subject: str) -> str:
    kind, value = detail["type"], detail["input"]
    ctx = detail.get("ctx", {})
    bounds = _bounds(field)
    if kind == "missing":
        return f"is required for {subject}" if subject else "is required"
    if field is not None and _is_count(field):
        return f"must be a whole number in [{bounds['ge']}, {bounds['le']}], got {value!r}"
    if kind == "float_type" and isinstance(value, int) and not isinstance(value, bool):
        kind, ctx = "less_than_equal", {"le": bounds["le"]}  # an int too large for a float
    bound = {
        "greater_than": f"must be greater than {ctx.get('gt', 0):g}",
        "greater_than_equal": f"must be at least {ctx.get('ge', 0):g}",
        "less_than_equal": f"must be at most {ctx.get('le', 0):g}",
    }
    wording = {
        "float_type": "must be a number",
        "finite_number": "must be a finite number",
        "multiple_of": "must be a whole number",
        **bound,
    }
    why = f" ({field.description})" if kind in bound and field and field.description else ""
    return f"{wording.get(kind, detail['msg'])}, got {value!r}{why}"


def _bounds(field: FieldInfo | None) -> dict[str, Any]:
    """The field's `gt`/`ge`/`le` constraints, by name."""
    return {
        name: getattr(constraint, name)
        for constraint in (field.metadata if field is not None else ())
        for name in ("gt", "ge", "le")
        if hasattr(constraint, name)
    }


def _is_count(field: FieldInfo) -> bool:
    """An `int` field (or an optional one)."""
    return int in (field.annotation, *typing.get_args(field.annotation))
