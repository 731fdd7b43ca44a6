"""Money: a decimal string on the wire, a Decimal in code, the same digits both ways."""

from __future__ import annotations

from decimal import Decimal

import pydantic
import pytest

from billing_toolkit.client.money import Amount, PositiveAmount, format_amount, money

AMOUNT = pydantic.TypeAdapter(Amount)
POSITIVE = pydantic.TypeAdapter(PositiveAmount)


@pytest.mark.parametrize("wire", ["45.00", "0.00", "-5.00", "1450.00", "999999999999.99", "-0.00"])
def test_wire_digits_survive_the_round_trip(wire: str) -> None:
    value = AMOUNT.validate_json(f'"{wire}"')
    assert isinstance(value, Decimal)
    assert str(value) == wire and AMOUNT.dump_json(value) == f'"{wire}"'.encode()


@pytest.mark.parametrize(
    "wire", ["45", "45.0", "45.000", "1,450.00", "1.450,00", "045.00", " 45.00", "4.5e1"]
)
def test_anything_else_is_not_an_amount(wire: str) -> None:
    with pytest.raises(pydantic.ValidationError):
        AMOUNT.validate_json(f'"{wire}"')


def test_a_json_number_is_not_an_amount() -> None:
    with pytest.raises(pydantic.ValidationError, match="decimal string"):
        AMOUNT.validate_json("45.00")


def test_a_payment_must_be_strictly_positive() -> None:
    assert POSITIVE.validate_python(Decimal("0.01")) == Decimal("0.01")
    for bad in ("0.00", "-1.00"):
        with pytest.raises(pydantic.ValidationError):
            POSITIVE.validate_python(bad)


def test_formatting_pads_but_never_rounds() -> None:
    assert format_amount(Decimal(45)) == "45.00"
    assert format_amount(Decimal("1.50")) == "1.50"
    with pytest.raises(ValueError, match="more than two decimals"):
        format_amount(Decimal("1.005"))
    with pytest.raises(ValueError):
        format_amount(Decimal("NaN"))
    assert money("VES", Decimal("1450.00")) == "VES 1450.00"
