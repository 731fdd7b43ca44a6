"""Money arithmetic: `Decimal` quantised to cents with ROUND_HALF_UP, a string on the wire.

Floats never touch an amount. Every rule that produces an amount passes it through `cents`
so two computations of the same figure give the same digits.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
MAX_AMOUNT = Decimal("999999999999.99")
"""The largest amount the contract's `Amount` pattern can carry (twelve integer digits)."""


def cents(value: Decimal | int | str) -> Decimal:
    """Quantise to 0.01, half up (the rounding an invoice printed by hand would use)."""
    return Decimal(value).quantize(CENT, ROUND_HALF_UP)  # positional: see `to_wire`


def total(amounts: Iterable[Decimal]) -> Decimal:
    """Sum of amounts, quantised (an empty sum is 0.00, not 0)."""
    return cents(sum(amounts, ZERO))


def to_wire(amount: Decimal) -> str:
    """The contract's `Amount` string: exactly two decimals, never `-0.00`.

    `str` of a Decimal quantised to cents is always plain notation (its exponent is -2),
    and it is several times cheaper than format(); every money field of every response
    goes through here. The rounding is passed by position: `_decimal` parses a keyword by
    name, which tripled the cost of the call (a balance makes eight)."""
    quantised = amount.quantize(CENT, ROUND_HALF_UP)  # `cents`, minus a call
    return str(quantised) if quantised else "0.00"
