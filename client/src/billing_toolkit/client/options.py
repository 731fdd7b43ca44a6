"""Option objects (timeouts, retry, breaker trips): validated by pydantic, refused in one line.

A breaker built from a typo (`threshold=50` meaning 50 %, a `"0.5"` read from an env file,
a NaN) would either never open or open on every call, and nobody would find out until the
API had an outage. So the bias is to reject: each field's type says its rule (`Seconds`,
`Count`, `Fraction`), pydantic checks it strictly (no `"0.5"` turned into 0.5, no `True`
counted as 1), and anything wrong raises `ValueError` at construction with one line naming
the option, the rule and the value given — not pydantic's multi-line report, which a log
line or an assistant's error path would cut. The classes stay frozen dataclasses (positional
arguments, `dataclasses.replace`, equality): `options` is a dataclass decorator.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, TypeVar, cast, dataclass_transform

from pydantic import ConfigDict, Field, ValidationError
from pydantic.dataclasses import dataclass as pydantic_dataclass

Count = Annotated[int, Field(strict=True, ge=1)]
"""A whole number of at least 1 (a threshold of calls, a number of buckets)."""
Seconds = Annotated[float, Field(strict=True, allow_inf_nan=False, gt=0)]
"""A finite duration above zero."""
Delay = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=0)]
"""A finite wait of zero or more seconds."""
Fraction = Annotated[float, Field(strict=True, allow_inf_nan=False, gt=0, le=1)]
"""A share in (0, 1]: 0 would open on any failure, more than 1 never."""

_Options = TypeVar("_Options")
_STRICT = ConfigDict(strict=True)


@dataclass_transform(frozen_default=True)
def options(cls: type[_Options]) -> type[_Options]:
    """`cls` as a frozen, slotted, strictly validated dataclass whose refusal is one line."""
    # pydantic types its decorator as returning `type[PydanticDataclass]`; what it returns is
    # `cls` made a (slotted, hence new) dataclass, with every attribute `cls` declared.
    validated = cast(
        "type[_Options]", pydantic_dataclass(frozen=True, slots=True, config=_STRICT)(cls)
    )
    validating_init: Callable[..., None] = validated.__init__

    @functools.wraps(validating_init)
    def __init__(self: object, *args: object, **kwargs: object) -> None:
        try:
            validating_init(self, *args, **kwargs)
        except ValidationError as error:
            raise ValueError(refusal(cls.__name__, error)) from None

    validated.__init__ = __init__
    return validated


def refusal(owner: str, error: ValidationError) -> str:
    """`Owner.field must be <rule>, got <value>` per problem (`; `-joined), or the message of
    a rule spanning fields (`__post_init__`), which names its owner itself."""
    problems: list[str] = []
    for detail in error.errors(include_url=False):
        message = detail["msg"]
        if not detail["loc"]:
            problems.append(message.removeprefix("Value error, "))
            continue
        field = ".".join(str(part) for part in (owner, *detail["loc"]))
        rule = message.removeprefix("Input should be ")
        given = detail["input"]
        problems.append(
            f"{field} must be {rule}, got {given!r}"
            if rule != message
            else f"{field}: {message} (got {given!r})"
        )
    return "; ".join(problems)
