"""Payment reports read again from outside (issue #27): a reference copied off a receipt in parts.

Subscribers copy a reference as the receipt prints it for reading, "0045-127" or
"0045 127"; reading only its first group filed a report of "0045", which the bank statement
can never verify. The neighbours keep what must not join: a figure, a date or an hour after
the reference, and a reference already long.
"""

from __future__ import annotations

from datetime import date

import pytest

from billing_toolkit.assistant.understanding.payment_report_reading import read_payment_report

TODAY = date(2026, 11, 10)


@pytest.mark.parametrize(
    ("message", "asked", "reference"),
    [
        ("pm ref 0045-127 1310,40 bs banesco ayer", None, "0045127"),
        ("referencia 0045-127, Bs. 1.310,40, Banesco, hoy", None, "0045127"),
        ("transferí 1310,40 bs del 0102 ref 0045 127 el lunes", None, "0045127"),
        ("ref 1234 5678 9012 transferencia bs 100,00", None, "123456789012"),
        ("0045-127", "reference", "0045127"),
        ("0045 127", "reference", "0045127"),
    ],
)
def test_a_reference_written_in_groups_is_read_whole(
    message: str, asked: str | None, reference: str
) -> None:
    assert read_payment_report(message, TODAY, asked).reference == reference


@pytest.mark.parametrize(
    ("message", "reference", "amount"),
    [
        ("ref 0045127 1310,40 bs", "0045127", "1310.40"),
        ("ref 0045127 1310 bs", "0045127", "1310.00"),
        ("ref 0045 1310 bs pago movil", "0045", "1310.00"),
        ("ref 0045 127 de 1.310,40 bs", "0045127", "1310.40"),
    ],
)
def test_the_figure_after_a_reference_stays_the_amount(
    message: str, reference: str, amount: str
) -> None:
    reading = read_payment_report(message, TODAY)
    assert (reading.reference, str(reading.amount)) == (reference, amount)


def test_a_date_or_an_hour_after_a_reference_joins_nothing() -> None:
    assert read_payment_report("ref 0045 15/11 pm 100,00 bs", TODAY).reference == "0045"
    assert read_payment_report("ref 0045 12:30", TODAY).reference == "0045"


def test_two_references_are_still_two_payments() -> None:
    assert read_payment_report("ref 4033 y ref 5566", TODAY).several_references
    assert not read_payment_report("ref 0045-127 o sea ref 0045127", TODAY).several_references
