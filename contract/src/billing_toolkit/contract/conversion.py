"""The contract's currency conversion (`exchange_rate.conversion`), in one place.

VES = USD × rate and USD = VES ÷ rate, each rounded half-up to the cent: the simulator
books with it, the SDK puts its figure in the evidence, and the conformance kit judges an
API's figures against it. Within the contract's bounds (twelve-digit amounts, rates of up
to eight decimals) the default 28-digit quotient is never close enough to a half cent to
round the wrong way.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def to_ves(usd: Decimal, rate: Decimal) -> Decimal:
    """VES = USD × rate, half-up to the cent."""
    return (usd * rate).quantize(CENT, ROUND_HALF_UP)


def to_usd(ves: Decimal, rate: Decimal) -> Decimal:
    """USD = VES ÷ rate, half-up to the cent."""
    return (ves / rate).quantize(CENT, ROUND_HALF_UP)


def convert(amount: Decimal, currency: str, rate: Decimal) -> Decimal:
    """`amount` in `currency` (USD or VES) expressed in the other currency of the pair."""
    return to_usd(amount, rate) if currency == "VES" else to_ves(amount, rate)
