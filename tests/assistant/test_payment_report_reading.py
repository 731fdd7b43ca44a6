"""Reading a payment report out of real wordings: method, reference, amount and currency,
bank by name or code, and the day paid — and nothing a message does not say."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from billing_toolkit.assistant.knowledge.banks import bank_named, find_bank
from billing_toolkit.assistant.understanding.payment_report_reading import (
    ReportReading,
    read_payment_report,
    with_currency_of_method,
)

TODAY = date(2026, 11, 10)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "hice un pago móvil, referencia 0045127, Bs. 1.310,40, Banesco, hoy",
            ReportReading("pago_movil", Decimal("1310.40"), "VES", "0045127", "0134", TODAY),
        ),
        (
            "ya pagué ayer por pago móvil ref 88123 por 46,40",
            ReportReading("pago_movil", Decimal("46.40"), None, "88123", None, date(2026, 11, 9)),
        ),
        (
            "transferí 1500 bolívares desde Mercantil, nro 00456712, el 8 de noviembre",
            ReportReading(
                "bank_transfer", Decimal("1500.00"), "VES", "00456712", "0105", date(2026, 11, 8)
            ),
        ),
        (
            "Pagomovil Bs 1.500 # 4471 banco de venezuela antier",
            ReportReading(
                "pago_movil", Decimal("1500.00"), "VES", "4471", "0102", date(2026, 11, 8)
            ),
        ),
        (
            (
                "Buenas, les hice una transferencia de 2.991,38 bolivares del BNC, numero de "
                "referencia: 000123456789, fecha 09/11/2026"
            ),
            ReportReading(
                "bank_transfer",
                Decimal("2991.38"),
                "VES",
                "000123456789",
                "0191",
                date(2026, 11, 9),
            ),
        ),
        (
            "pago movil 0134 ref. 7781 por Bs.D 980,00",
            ReportReading("pago_movil", Decimal("980.00"), "VES", "7781", "0134", None),
        ),
        (
            "mandé un zelle de $28 esta mañana, conf 99812AB",
            ReportReading("zelle", Decimal("28.00"), "USD", "99812AB", None, TODAY),
        ),
        (
            "I paid by Zelle, confirmation number 5531XZ, USD 32.48, yesterday",
            ReportReading("zelle", Decimal("32.48"), "USD", "5531XZ", None, date(2026, 11, 9)),
        ),
        (
            "i just sent a mobile payment of 1,310.40 bolivars from Banesco, reference 0045127",
            ReportReading("pago_movil", Decimal("1310.40"), "VES", "0045127", "0134", None),
        ),
        (
            "bank transfer from Provincial, ref #66120, 28 dollars, today",
            ReportReading("bank_transfer", Decimal("28.00"), "USD", "66120", "0108", TODAY),
        ),
        (
            "zelle Bs. 500,00 ref 4410 hoy",
            ReportReading("zelle", Decimal("500.00"), "VES", "4410", None, TODAY),
        ),
    ],
)
def test_a_report_in_one_message(message: str, expected: ReportReading) -> None:
    assert read_payment_report(message, TODAY, day_first="paid" not in message) == expected


@pytest.mark.parametrize(
    ("message", "asked", "expected"),
    [
        ("0045127", "reference", ReportReading(reference="0045127")),
        ("es la 00456712", "reference", ReportReading(reference="00456712")),
        ("1310,40", "amount", ReportReading(amount=Decimal("1310.40"))),
        ("1500", "amount", ReportReading(amount=Decimal("1500.00"))),
        ("Bs. 1.310,40", "amount", ReportReading(amount=Decimal("1310.40"), currency="VES")),
        ("0134", "bank", ReportReading(bank="0134")),
        ("del bancamiga", "bank", ReportReading(bank="0172")),
        ("ayer", "payment_date", ReportReading(payment_date=date(2026, 11, 9))),
        ("el 5 de noviembre", "payment_date", ReportReading(payment_date=date(2026, 11, 5))),
        ("por pago movil", "method", ReportReading(method="pago_movil")),
    ],
)
def test_the_answer_to_the_question_just_asked(
    message: str, asked: str, expected: ReportReading
) -> None:
    assert read_payment_report(message, TODAY, asked) == expected


@pytest.mark.parametrize(
    "message",
    [
        "0045127",  # bare digits, nothing asked: could be anything
        "1500",
        "¿cuánto debo?",
        "mi cuenta es 1000004821",
        "gracias",
    ],
)
def test_digits_said_without_a_question_or_a_keyword_are_nothing(message: str) -> None:
    assert read_payment_report(message, TODAY) == ReportReading()


def test_a_bare_number_answers_only_the_field_that_was_asked() -> None:
    assert read_payment_report("0134", TODAY, "reference") == ReportReading(reference="0134")
    assert read_payment_report("0045127", TODAY, "bank") == ReportReading()
    assert read_payment_report("9999", TODAY, "bank") == ReportReading()  # not a bank code


def test_a_date_without_a_year_is_the_last_one_not_after_today() -> None:
    assert read_payment_report("el 20 de diciembre", TODAY).payment_date == date(2025, 12, 20)
    assert read_payment_report("on 11/09/2026", TODAY, day_first=False).payment_date == date(
        2026, 11, 9
    )


def test_an_amount_without_a_currency_is_in_the_methods_one_currency() -> None:
    bare = ReportReading(amount=Decimal("46.40"))
    assert with_currency_of_method(bare, "pago_movil").currency == "VES"
    assert with_currency_of_method(bare, "zelle").currency == "USD"
    assert with_currency_of_method(bare, None).currency is None
    written = ReportReading(amount=Decimal("500.00"), currency="VES")
    assert with_currency_of_method(written, "zelle").currency == "VES"  # as said, not judged


def test_banks_by_name_and_code_come_from_the_table() -> None:
    assert bank_named("0134") is not None and bank_named("0134").name == "Banesco"  # type: ignore[union-attr]
    assert bank_named("0412") is None
    mention = find_bank("pagué desde BBVA Provincial")
    assert mention is not None and mention.bank.code == "0108"
    assert find_bank("el banco del barrio") is None
