"""The grounding verifier: what a reply may state, given the evidence of its turn.

Run with branch coverage enforced (the verifier and the readers it reads with):
    pytest --cov=billing_toolkit.assistant.guards.grounding \
        --cov=billing_toolkit.assistant.guards.record_binding \
        --cov=billing_toolkit.assistant.text.amounts \
        --cov=billing_toolkit.assistant.text.currencies \
        --cov=billing_toolkit.assistant.text.number_words \
        --cov=billing_toolkit.assistant.text.dates \
        --cov=billing_toolkit.assistant.text.relative_dates --cov-branch --cov-fail-under=100 \
        tests/assistant/test_grounding*.py tests/assistant/test_amounts.py \
        tests/assistant/test_dates.py tests/assistant/test_number_words.py \
        tests/assistant/test_record_binding.py
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from billing_toolkit.assistant.guards.grounding import GroundingResult, GroundingVerifier

BALANCE = (
    "Balance of account 1000004821 as of 2026-11-29T10:00:00Z: amount due USD 45.00; "
    "overdue USD 0.00; credit USD 10.00; net balance USD -10.00; next due date 2026-12-10."
)
CUSTOMER = "Customer 1000004821: María Rodríguez, phone +584121234567, national ID V-12345678."
INVOICE_LINE = "Line: Fibra 100 (05/11/2026 - 04/12/2026) USD 28.00; IVA 16% USD 4.48."
VES = "Invoice INV-2026-004281 total VES 2250.00; amount due VES 1234.56."


def verify(
    answer: str, *tool_texts: str, chunks: dict[str, str] | None = None, used: tuple[str, ...] = ()
) -> GroundingResult:
    chunks = chunks or {}
    return GroundingVerifier().verify(
        answer=answer,
        used_chunk_ids=list(used),
        retrieved_chunk_ids=list(chunks),
        evidence_texts=list(chunks.values()),
        tool_result_texts=list(tool_texts),
    )


class TestCitations:
    def test_citing_retrieved_chunks_is_grounded(self) -> None:
        result = verify(
            "La mora es del 5%.",
            chunks={"kb-late-fee": "La mora es del 5%."},
            used=("kb-late-fee",),
        )
        assert result.grounded
        assert result.unsupported == ()

    def test_citing_a_chunk_that_was_not_retrieved_is_rejected(self) -> None:
        result = verify(
            "La mora es del 5%.",
            chunks={"kb-late-fee": "La mora es del 5%."},
            used=("kb-late-fee", "kb-invented", "kb-invented"),
        )
        assert not result.grounded
        assert result.unsupported_citations == ("kb-invented",)
        assert result.unsupported == ("kb-invented",)

    def test_tool_result_texts_may_be_omitted(self) -> None:
        result = GroundingVerifier().verify(
            answer="Se suspende 10 días después del vencimiento.",
            used_chunk_ids=["c1"],
            retrieved_chunk_ids=["c1"],
            evidence_texts=["El servicio se suspende 10 días después del vencimiento."],
        )
        assert result.grounded


class TestLiteralSupport:
    @pytest.mark.parametrize(
        "answer",
        [
            "Tu cuenta 1000004821 está al día.",
            "Registramos tu teléfono +584121234567.",
            "El IVA es 16%.",
            "Consulta de las 10:00.",
            "Factura INV-2026-004281.",
            "Tu saldo neto es USD -10.00.",
        ],
    )
    def test_figures_copied_from_evidence_are_grounded(self, answer: str) -> None:
        assert verify(answer, BALANCE, CUSTOMER, INVOICE_LINE, VES).grounded

    def test_a_number_inside_a_longer_number_is_not_support(self) -> None:
        result = verify("Tu cédula es 12345678.", "National ID V-123456789.")
        assert result.unsupported_tokens == ("12345678",)

    def test_the_tail_of_a_grouped_amount_is_not_support(self) -> None:
        result = verify("Debes 234,56.", "amount due VES 1.234,56")
        assert result.unsupported_tokens == ("234,56",)

    def test_a_short_number_without_evidence_is_rejected(self) -> None:
        assert verify("Tienes 3 facturas.", BALANCE).unsupported_tokens == ("3",)

    def test_numbers_glued_to_letters_are_still_checked(self) -> None:
        assert verify("Referencia ABC999.", BALANCE).unsupported_tokens == ("999",)


class TestAmounts:
    @pytest.mark.parametrize(
        "answer",
        [
            "Debes USD 45,00.",
            "Debes USD 45.0.",
            "Bs. 2.250,00 en total.",
            "Bs. 1.234,56 por pagar.",
            "VES 1,234.56 por pagar.",
        ],
    )
    def test_the_same_value_in_another_notation_is_grounded(self, answer: str) -> None:
        assert verify(answer, BALANCE, VES).grounded

    def test_four_thousand_five_hundred_is_not_forty_five(self) -> None:
        assert verify("Debes Bs. 4.500", BALANCE).unsupported_tokens == ("4.500",)

    def test_a_changed_amount_is_rejected(self) -> None:
        assert verify("Debes USD 54,00.", BALANCE).unsupported_tokens == ("54,00",)

    def test_a_dropped_minus_sign_is_rejected(self) -> None:
        result = verify("Tu saldo neto es USD 10,00 a tu favor.", "net balance USD -10.00")
        assert result.unsupported_tokens == ("10,00",)

    def test_an_invented_minus_sign_is_rejected(self) -> None:
        result = verify("Tu saldo es USD -45,00.", "amount due USD 45.00")
        assert result.unsupported_tokens == ("-45,00",)

    def test_a_unicode_minus_reads_as_a_sign_on_both_sides(self) -> None:
        assert verify("Saldo USD \u221210,00.", "net balance USD \u221210.00").grounded
        assert not verify("Saldo USD 10,00.", "net balance USD \u221210.00").grounded

    def test_a_dash_after_a_word_is_not_a_minus_sign(self) -> None:
        assert verify("Plan PLN-FIBRA-100 de 100 Mbps.", "Plan PLN-FIBRA-100: 100 Mbps").grounded

    @given(cents=st.integers(min_value=0, max_value=10**9), delta=st.integers(1, 10**6))
    def test_es_ve_rendering_is_grounded_and_any_other_value_is_not(
        self, cents: int, delta: int
    ) -> None:
        value = Decimal(cents) / 100
        evidence = f"amount due VES {value:.2f}"
        es_ve = f"{value:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")
        assert verify(f"Debes Bs. {es_ve}.", evidence).grounded
        other = f"{(Decimal(cents + delta) / 100):.2f}".replace(".", ",")
        assert not verify(f"Debes Bs. {other}.", evidence).grounded


class TestIdentifiers:
    def test_separators_in_an_identifier_are_cosmetic(self) -> None:
        assert verify("Tu cédula V-12.345.678.", CUSTOMER).grounded

    def test_a_transposed_identifier_is_rejected(self) -> None:
        assert verify("Tu cuenta 1000004812.", CUSTOMER).unsupported_tokens == ("1000004812",)

    def test_a_neighbouring_invoice_number_is_rejected(self) -> None:
        result = verify("Factura INV-2026-004282.", VES)
        assert result.unsupported_tokens == ("2026-004282",)


class TestDates:
    @pytest.mark.parametrize(
        "answer",
        [
            "Vence el 10 de diciembre de 2026.",
            "Due December 10, 2026.",
            "Due 2026-12-10.",
            "Vence el 10 de diciembre.",
            "Período del 05/11/2026 al 04/12/2026.",
            "Consultado el 29 de noviembre de 2026.",
        ],
    )
    def test_dates_with_the_evidence_value_or_literal_are_grounded(self, answer: str) -> None:
        assert verify(answer, BALANCE, INVOICE_LINE).grounded

    def test_a_changed_date_is_rejected(self) -> None:
        result = verify("Vence el 11 de diciembre de 2026.", BALANCE)
        assert result.unsupported_tokens == ("11 de diciembre de 2026",)

    def test_a_changed_date_without_year_is_rejected(self) -> None:
        assert verify("Vence el 11 de diciembre.", BALANCE).unsupported_tokens == (
            "11 de diciembre",
        )

    def test_an_ambiguous_numeric_date_needs_its_literal(self) -> None:
        result = verify("Vence el 12/10/2026.", "next due date 2026-12-10")
        assert result.unsupported_tokens == ("12/10/2026",)

    def test_an_unambiguous_numeric_date_is_read_by_value(self) -> None:
        assert verify("Pagaste el 25/12/2026.", "received_at 2026-12-25T16:45:00Z").grounded

    def test_a_yearless_evidence_date_supports_the_same_day(self) -> None:
        assert verify(
            "Cierra el 24 de diciembre.", "Las oficinas cierran el 24 de diciembre."
        ).grounded

    def test_an_impossible_date_is_rejected(self) -> None:
        assert not verify("Vence el 31 de febrero.", "Vence el 28 de febrero; 31 días.").grounded

    def test_the_digits_of_a_date_are_not_checked_again(self) -> None:
        result = verify("Vence el 2026-13-40.", BALANCE)
        assert result.unsupported_tokens == ("2026-13-40",)


def test_every_unsupported_item_is_listed_once_in_order() -> None:
    result = verify(
        "USD 54,00, USD 54,00 y 7 de enero de 2027.", BALANCE, chunks={"a": "x"}, used=("b",)
    )
    assert result == GroundingResult(
        grounded=False,
        unsupported_citations=("b",),
        unsupported_tokens=("54,00", "7 de enero de 2027"),
    )
    assert result.unsupported == ("b", "54,00", "7 de enero de 2027")


def test_an_answer_without_figures_or_citations_is_grounded() -> None:
    assert verify("Con gusto te ayudo.").grounded


@pytest.mark.parametrize("shifted", ["1110.207", "1110,207", "111.0207", "1.110.207"])
def test_a_shifted_decimal_mark_is_not_backed_by_the_amounts_digits(shifted: str) -> None:
    """The magnitude fault the suite injects: `11.102,07` → `1110.207` has the same seven
    digits, and digit equality is for identifiers, never for amounts."""
    evidence = "Balance: amount due VES 11102.07; overdue VES 11102.07."
    assert not verify(f"Debes Bs. {shifted}.", evidence).grounded
    assert verify("Debes Bs. 11.102,07.", evidence).grounded


def test_an_identifier_is_still_backed_by_its_digits_next_to_amounts() -> None:
    assert verify("Tu cédula V-12.345.678 y tu saldo USD 45,00.", BALANCE, CUSTOMER).grounded
