"""The verifier and units: the right number in the wrong currency is a wrong figure.

An amount with a currency beside it (code, symbol or word, before or after) is backed only by
an evidence amount of the same value in the same currency; `%` is a unit of its own; a bare
number is judged by value, as before.
"""

from __future__ import annotations

import pytest

from billing_toolkit.assistant.text.currencies import CONFLICT, PERCENT, unit_of
from tests.assistant.grounding_helpers import verify

USD_BALANCE = (
    "Balance of account 1000004821 as of 2026-11-29T10:00:00Z: amount due USD 45.00; "
    "overdue USD 0.00; credit USD 0.00; net balance USD 45.00; next due date 2026-12-15."
)
VES_INVOICE = (
    "Invoice INV-2026-004281 of account 1000004821: status open; due 2026-12-15; "
    "total VES 2250.00; paid VES 0.00; amount due VES 2250.00. Line items: tax "
    '"IVA 16%" VES 310.34.'
)


@pytest.mark.parametrize(
    ("answer", "token"),
    [
        ("Tu saldo es Bs. 45,00.", "45,00"),  # the case: dollars told as bolívares
        ("Tu saldo es Bs 45,00.", "45,00"),
        ("Tu saldo es Bs.D 45,00.", "45,00"),
        ("Tu saldo es Bs.S 45.", "45"),
        ("Tu saldo es VES 45,00.", "45,00"),
        ("Tu saldo es 45,00 bolívares.", "45,00"),
        ("Tu saldo es 45 Bs.", "45"),
        ("Your balance is 45.00 euros.", "45.00"),
        ("Tu saldo es € 45,00.", "45,00"),  # the case: a euro sign
        ("Tu saldo es 45,00 €.", "45,00"),
        ("Tu saldo es EUR 45,00.", "45,00"),
        ("Tu saldo es 45,00 pesos.", "45,00"),  # a currency the billing system never uses
        ("Tu saldo es Bs.F 45,00.", "45,00"),  # the retired bolívar fuerte is not VES
        ("Tu saldo es USD 45,00 Bs.", "45,00"),  # two units for one figure: backed by none
    ],
)
def test_a_dollar_figure_in_another_currency_is_rejected(answer: str, token: str) -> None:
    assert verify(answer, USD_BALANCE).unsupported_tokens == (token,)


@pytest.mark.parametrize(
    "answer",
    [
        "Tu saldo es USD 45,00.",
        "Tu saldo es US$ 45,00.",
        "Tu saldo es $45.",
        "Tu saldo es 45 USD.",
        "Tu saldo es 45,00 $.",
        "Tu saldo es de 45 dólares.",
        "Tu saldo es de 45,00 dólares americanos.",
        "Your balance is 45 US dollars.",
        "Your balance is USD 45.00.",
        "Tu saldo es de 45,00.",  # a bare figure is judged by value, as before
    ],
)
def test_a_dollar_figure_in_dollars_is_grounded(answer: str) -> None:
    result = verify(answer, USD_BALANCE)
    assert result.grounded, result.unsupported


@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        ("El total es USD 2.250,00.", False),  # the case: bolívares told in dollars
        ("El total es $2,250.00.", False),
        ("El total es 2.250,00 dólares.", False),
        ("El total es Bs. 2.250,00.", True),
        ("El total es Bs.D 2.250,00.", True),
        ("El total es 2250 bolívares.", True),
        ("El total es VES 2,250.00.", True),
    ],
)
def test_a_bolivar_figure_is_backed_only_in_bolivares(answer: str, grounded: bool) -> None:
    assert verify(answer, VES_INVOICE).grounded is grounded


def test_a_figure_the_evidence_states_without_a_unit_backs_no_figure_with_one() -> None:
    evidence = "Reconnection fee 5.00 per event."
    assert verify("La reconexión cuesta 5,00.", evidence).grounded
    assert verify("La reconexión cuesta USD 5,00.", evidence).unsupported_tokens == ("5,00",)


def test_the_same_figure_in_both_currencies_backs_each_in_its_own() -> None:
    evidence = "Invoice A total USD 45.00. Invoice B total VES 45.00."
    assert verify("USD 45,00 y Bs. 45,00.", evidence).grounded


def test_an_ambiguous_dash_before_a_figure_with_a_unit_must_hold_both_ways() -> None:
    both = "credit USD 0.16; net balance USD -0.16"
    assert verify("Saldo - 0,16 USD.", both).grounded
    assert verify("Saldo - 0,16 USD.", "net balance USD -0.16").unsupported_tokens == ("- 0,16",)


class TestPercentages:
    def test_a_percentage_is_backed_by_the_same_percentage(self) -> None:
        assert verify("El IVA es del 16%.", VES_INVOICE).grounded
        assert verify("El IVA es del 16 por ciento.", VES_INVOICE).grounded

    def test_a_percentage_is_not_an_amount_and_an_amount_is_not_a_percentage(self) -> None:
        assert verify("Tu saldo es el 45%.", USD_BALANCE).unsupported_tokens == ("45",)
        assert verify("El IVA es USD 16.", VES_INVOICE).unsupported_tokens == ("16",)

    def test_a_changed_percentage_is_rejected(self) -> None:
        assert verify("El IVA es del 12 %.", VES_INVOICE).unsupported_tokens == ("12",)


class TestUnitReading:
    @pytest.mark.parametrize(
        ("text", "unit"),
        [
            ("USD 45", "USD"),
            ("US$ -45", "USD"),
            ("45 dollars", "USD"),
            ("45 de dólares", "USD"),
            ("Bs.S 45", "VES"),
            ("45 bolívares digitales", "VES"),
            ("VED 45", "VES"),
            ("45 %", PERCENT),
            ("45 percent", PERCENT),
            ("$45 USD", "USD"),
            ("USD 45 €", CONFLICT),
            ("45 libras", "GBP"),
            ("ABs 45", None),  # letters glued before a code: not a code
            ("45 facturas", None),
        ],
    )
    def test_the_unit_beside_a_figure(self, text: str, unit: str | None) -> None:
        start = text.index("45")
        assert unit_of(text, start, start + 2) == unit

    def test_a_unit_before_another_figure_is_that_figures(self) -> None:
        text = "10 USD 45"
        assert (unit_of(text, 0, 2), unit_of(text, 7, 9)) == (None, "USD")


RATE_EVIDENCE = (
    "Official exchange rate for 2026-11-06: VES 91.9581 per USD 1.00 (source BCV,"
    " published 2026-11-05T20:00:00Z)."
)


@pytest.mark.parametrize(
    ("reply", "backed"),
    [
        ("La tasa es Bs. 91,9581 por dólar.", True),  # the rate, in its unit
        ("The rate is VES 91.9581 per dollar.", True),
        ("La tasa es Bs. 91,9518 por dólar.", False),  # digits swapped
        ("La tasa es $91,9581.", False),  # the rate's figure in the other currency
        # said bare, with either decimal mark: no unit to get wrong, the value must hold
        ("La tasa de hoy es 91,9581.", True),
        ("Today's rate is 91.9581 bolívares a dollar.", True),
        ("La tasa de hoy es 91,9518.", False),
        ("La tasa de hoy es 91,958.", False),  # three decimals: a grouped figure, not a rate
        ("La tasa de hoy es 9,1958.", False),
    ],
)
def test_a_rate_said_with_its_unit_is_backed_only_by_the_same_rate_in_that_unit(
    reply: str, backed: bool
) -> None:
    result = verify(reply, RATE_EVIDENCE)
    assert (not result.unsupported_tokens) is backed, result.unsupported_tokens
