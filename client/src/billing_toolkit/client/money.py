"""Money on the wire and in code: a decimal string outside, a `Decimal` inside, never a float.

The generated models use these types for the contract's `Amount` schema (the regeneration
command maps them with datamodel-codegen's `--type-overrides`), so every money field of a
parsed response is a `Decimal` whose digits are exactly the ones the API sent: `"45.00"`
becomes `Decimal("45.00")`, whose `str()` is `"45.00"` again. That round trip is what lets a
capability quote a figure "exactly as the system of record gave it".

Parsing is strict on purpose (bias: reject). A JSON number, a string with one decimal or a
thousands separator is not an amount under the contract; accepting it would turn a broken
server into a silently wrong figure, so it fails validation and the client reports a
contract violation instead.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Annotated, Any

from pydantic import BeforeValidator, PlainSerializer

AMOUNT_PATTERN = r"^-?(0|[1-9][0-9]{0,11})\.[0-9]{2}$"
"""The contract's `Amount` pattern (a test checks it against `contract/openapi.yaml`)."""

POSITIVE_AMOUNT_PATTERN = r"^(0\.(0[1-9]|[1-9][0-9])|[1-9][0-9]{0,11}\.[0-9]{2})$"
"""The contract's `PositiveAmount` pattern (what a payment may be): strictly positive."""

_AMOUNT = re.compile(AMOUNT_PATTERN)
_POSITIVE_AMOUNT = re.compile(POSITIVE_AMOUNT_PATTERN)


def format_amount(value: Decimal) -> str:
    """The wire form of an amount: plain digits, exactly two decimals.

    Values parsed from the wire already have two decimals and come back unchanged; a value
    with more decimals is a programming error upstream, and is refused rather than rounded,
    because rounding money silently is how a wrong figure reaches a subscriber.
    """
    if not value.is_finite():
        raise ValueError(f"{value} is not an amount")
    text = format(value, "f")
    if value.as_tuple().exponent != -2:
        quantized = value.quantize(Decimal("0.01"))
        if quantized != value:
            raise ValueError(f"{text} has more than two decimals")
        text = format(quantized, "f")
    return text


def _amount_parser(pattern: re.Pattern[str], what: str) -> Any:
    def parse(value: Any) -> Decimal:
        if isinstance(value, Decimal):
            value = format_amount(value)
        if not isinstance(value, str):
            # pydantic turns a ValueError (not a TypeError) into a field's ValidationError.
            raise ValueError(  # noqa: TRY004
                f"{what} must be a decimal string, not {type(value).__name__}"
            )
        if not pattern.match(value):
            raise ValueError(f"{value!r} is not {what} (pattern {pattern.pattern})")
        return Decimal(value)

    return parse


Amount = Annotated[
    Decimal,
    BeforeValidator(_amount_parser(_AMOUNT, "an amount")),
    PlainSerializer(format_amount, return_type=str),
]
"""A money amount: `"45.00"` on the wire, `Decimal("45.00")` in code."""

PositiveAmount = Annotated[
    Decimal,
    BeforeValidator(_amount_parser(_POSITIVE_AMOUNT, "a strictly positive amount")),
    PlainSerializer(format_amount, return_type=str),
]
"""An amount that must be greater than zero (what a payment may be)."""


def money(currency: str, amount: Decimal) -> str:
    """How evidence states a figure: the currency code, a space, the wire digits (`USD 45.00`).

    Keeping the wire digits (not the es-VE display form) is deliberate: the grounding
    verifier compares the answer against this text, and the narrator localises around it.
    """
    return f"{currency} {format_amount(amount)}"
