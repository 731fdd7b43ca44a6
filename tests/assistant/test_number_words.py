"""Numbers in words: read by value, and judged by the verifier like the same figure in digits."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from billing_toolkit.assistant.text.number_words import (
    find_spelled_amounts,
    find_spelled_figures,
    fraction_after,
    read_number_words,
    read_spelled_value,
    scaled,
    spell_number,
)
from tests.assistant.grounding_helpers import verify

BALANCE = (
    "Balance of account 1000004821: amount due USD 45.50; overdue USD 0.00; "
    "credit USD 62.00; net balance USD -16.50."
)
VES = "Invoice INV-2026-004281: total VES 1250000.00; tax VES 32.00; IVA 16%."


@pytest.mark.parametrize(
    ("words", "value"),
    [
        ("treinta y dos", 32),
        ("sixty-two", 62),
        ("cuarenta y cinco", 45),
        ("ciento veinticinco", 125),
        ("one hundred and five", 105),
        ("dos mil veintiséis", 2026),
        ("un millón doscientos cincuenta mil", 1_250_000),
        ("two million three hundred thousand", 2_300_000),
        ("mil", 1000),
        ("cero", 0),
        ("DIECISÉIS", 16),
    ],
)
def test_cardinals_are_read_to_their_value(words: str, value: int) -> None:
    assert read_number_words(words) == value


@pytest.mark.parametrize(
    "words",
    ["treinta cuarenta", "cinco y tres", "cien mil mil", "twelve hundred", "cero cinco", "million"],
)
def test_words_that_make_no_single_number_have_no_value(words: str) -> None:
    assert read_number_words(words) is None


@pytest.mark.parametrize(
    ("words", "day"), [("primero", 1), ("fifteenth", 15), ("twenty-first", 21), ("quince", 15)]
)
def test_days_in_words(words: str, day: int) -> None:
    assert read_spelled_value(words) == day


@given(st.integers(min_value=0, max_value=999_999), st.booleans())
def test_what_is_spelled_reads_back_to_the_same_number(n: int, english: bool) -> None:
    assert read_number_words(spell_number(n, english=english)) == n


def test_only_numbers_below_a_million_are_spelled() -> None:
    with pytest.raises(ValueError, match="999999"):
        spell_number(10**6, english=False)


def test_cents_after_con_or_after_the_currency() -> None:
    values = [
        a.value
        for a in find_spelled_amounts(
            "cuarenta y cinco con cincuenta dólares; forty-five dollars and fifty cents; "
            "cuarenta y cinco dólares con cincuenta centavos; diez con cien dólares"
        )
    ]
    assert values == [Decimal("45.50"), Decimal("45.50"), Decimal("45.50"), None]


class TestTheVerifier:
    @pytest.mark.parametrize(
        ("answer", "token"),
        [
            ("Tienes un crédito de sixty-three dollars.", "sixty-three dollars"),
            ("Tienes un crédito de sesenta y tres dólares.", "sesenta y tres dólares"),
            ("Debes treinta y dos bolívares.", "treinta y dos bolívares"),
            ("Debes cuarenta y cinco dólares.", "cuarenta y cinco dólares"),  # 45.50, not 45
            ("Debes cuarenta y cinco con cinco dólares.", "cuarenta y cinco con cinco dólares"),
            (
                "Tienes a favor sesenta y dos bolívares.",
                "sesenta y dos bolívares",
            ),  # a currency swap
            ("Debes cuarenta y treinta dólares.", "cuarenta y treinta dólares"),  # unreadable
            ("Debes USD cuarenta.", "cuarenta"),
            ("La mora es del cinco por ciento.", "cinco por ciento"),
        ],
    )
    def test_a_wrong_or_unreadable_amount_in_words_is_rejected(
        self, answer: str, token: str
    ) -> None:
        assert verify(answer, BALANCE).unsupported_tokens == (token,)

    @pytest.mark.parametrize(
        ("answer", "evidence"),
        [
            ("Tienes un crédito de sixty-two dollars.", BALANCE),
            ("Tienes un crédito de sesenta y dos dólares.", BALANCE),
            ("Debes cuarenta y cinco con cincuenta dólares.", BALANCE),
            ("You owe forty-five dollars and fifty cents.", BALANCE),
            ("Debes cuarenta y cinco dólares con cincuenta centavos.", BALANCE),
            ("El total es de un millón doscientos cincuenta mil bolívares.", VES),
            ("El IVA es de treinta y dos bolívares, el dieciséis por ciento.", VES),
            ("Tu saldo: USD 45,50 (cuarenta y cinco con cincuenta dólares).", BALANCE),
            ("Tienes dos facturas y una consulta pendiente.", BALANCE),  # counts, not figures
        ],
    )
    def test_a_right_amount_in_words_is_grounded(self, answer: str, evidence: str) -> None:
        result = verify(answer, evidence)
        assert result.grounded, result.unsupported

    def test_a_negative_amount_in_words_is_not_read_as_its_sign(self) -> None:
        # "dieciséis con cincuenta dólares" is unsigned; the evidence states -16.50 only.
        assert not verify("Tu saldo neto es dieciséis con cincuenta dólares.", BALANCE).grounded


@pytest.mark.parametrize(
    ("text", "fraction"),
    [
        (" con cincuenta", Decimal("0.50")),
        (" y 50 centavos", Decimal("0.50")),
        (" and fifty cents", Decimal("0.50")),
        (" con 5.", Decimal("0.05")),
        (" y medio", Decimal("0.5")),
        (" con ciento veinte", None),  # 120 cents: no reading
        (" y cincuenta", "none"),  # "and fifty" with no cents word is no cents
    ],
)
def test_the_fraction_written_after_a_whole_figure(text: str, fraction: object) -> None:
    found = fraction_after(text, 0)
    if fraction == "none":
        assert found is None
    else:
        assert found is not None and found[0] == fraction


@pytest.mark.parametrize(
    ("text", "figures"),
    [
        ("un recargo de seis.", ["seis"]),
        ("te quedan quince días", ["quince"]),
        ("tienes dos facturas", []),
        ("tienes una.", []),
        ("el 16 por ciento.", []),
    ],
)
def test_a_number_word_with_no_unit_is_a_figure_where_it_ends_a_phrase(
    text: str, figures: list[str]
) -> None:
    assert [f.literal for f in find_spelled_figures(text)] == figures


def test_digits_before_a_scale_word_are_scaled() -> None:
    assert scaled("USD 45 mil", 6) and scaled("45k", 2)
    assert not scaled("45 dólares", 2)
