"""The grounding verifier and signs: a dropped or invented minus is a wrong figure.

A figure is supported only by an evidence figure with the same sign, whichever way either
side writes the sign; hyphens inside dates, phones and IDs are not signs.
"""

from __future__ import annotations

from typing import Any

import pytest

from billing_toolkit.assistant.evaluation.narration_faults import NarrationFault, corrupt
from billing_toolkit.assistant.guards.grounding import GroundingResult
from billing_toolkit.assistant.narrator import NarrationRequest, TemplateNarrator
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.vocabulary.intents import Intent
from billing_toolkit.client.tool_result import ToolResult
from tests.assistant.assistant_fakes import _bill_change, _invoice, _invoice_evidence
from tests.assistant.grounding_helpers import verify

NEGATIVE_ONLY = "Balance: amount due USD 0.00; credit USD 0.00; net balance USD -0.16."
BOTH_SIGNS = "Balance: amount due USD 0.00; credit USD 0.16; net balance USD -0.16."
POSITIVE_ONLY = "Balance: amount due USD 0.00; credit USD 0.16; net balance USD 0.00."


class TestDroppedMinus:
    @pytest.mark.parametrize(
        ("answer", "token"),
        [
            ("Tu saldo neto es USD 0,16.", "0,16"),
            ("Your net balance is USD 0.16.", "0.16"),
            ("Tienes un crédito de USD 0,16.", "0,16"),
            ("Saldo neto (USD 0,16).", "0,16"),
            ("Saldo neto: 0,16 dólares.", "0,16"),
        ],
    )
    def test_the_digits_inside_a_negative_figure_do_not_support_it_unsigned(
        self, answer: str, token: str
    ) -> None:
        assert verify(answer, NEGATIVE_ONLY).unsupported_tokens == (token,)

    def test_a_grouped_amount_keeps_its_sign(self) -> None:
        result = verify("Saldo Bs. 1.234,56 y Bs. 1,234.56.", "net balance VES -1234.56")
        assert result.unsupported_tokens == ("1.234,56", "1,234.56")

    def test_an_unsigned_figure_with_its_own_unsigned_occurrence_passes(self) -> None:
        assert verify("Tienes un saldo a favor de USD 0,16.", BOTH_SIGNS).grounded
        assert verify("Saldo neto USD -0,16; saldo a favor USD 0,16.", BOTH_SIGNS).grounded

    def test_zero_has_no_sign(self) -> None:
        assert verify("Saldo neto USD 0,00.", "net balance USD -0.00").grounded


class TestWrittenMinus:
    @pytest.mark.parametrize(
        "answer",
        [
            "Saldo neto USD -0,16.",
            "Saldo neto -USD 0,16.",
            "Saldo neto: - USD 0,16.",
            "Saldo neto USD-0,16.",
            "Saldo neto USD - 0,16.",
            "Saldo neto Bs.-0,16.",
            "Saldo neto -usd 0,16.",
            "Saldo neto bs.-0,16.",
            "Saldo neto US$ -0,16.",
            "Saldo neto $-0.16.",
            "Saldo neto USD \u22120,16.",
            "Saldo neto USD \u20130,16.",
            "Saldo neto USD \u20120,16.",
            "Saldo neto USD \ufe630,16.",
            "Saldo neto USD \uff0d0,16.",
            "Saldo neto \u2212USD 0,16.",
        ],
    )
    def test_every_way_of_writing_a_minus_is_a_minus(self, answer: str) -> None:
        # The evidence is in the currency the answer names: a currency swap is its own fault.
        currency = "VES" if "bs" in answer.lower() else "USD"
        assert verify(answer, NEGATIVE_ONLY.replace("USD", currency)).grounded
        invented = verify(answer, POSITIVE_ONLY.replace("USD", currency))
        assert invented.unsupported_tokens in (("-0,16",), ("-0.16",))

    @pytest.mark.parametrize(
        ("evidence", "currency"),
        [
            ("net balance -USD 0.16", "USD "),
            ("net balance USD-0.16", "USD "),
            ("net balance USD \u20130.16", "USD "),
            ("net balance: \u22120.16", ""),
            ("net balance Bs. - 0.16", "Bs. "),
        ],
    )
    def test_the_evidence_is_read_the_same_way(self, evidence: str, currency: str) -> None:
        assert verify(f"Saldo neto {currency}-0,16.", evidence).grounded
        assert verify(f"Saldo neto {currency}0,16.", evidence).unsupported_tokens == ("0,16",)


class TestAmbiguousDash:
    """`saldo - 0,16`: a minus, an operator or a separator, so only true under both readings."""

    def test_it_needs_the_figure_with_both_signs(self) -> None:
        assert verify("Saldo - 0,16.", NEGATIVE_ONLY).unsupported_tokens == ("- 0,16",)
        assert verify("Saldo - 0,16.", POSITIVE_ONLY).unsupported_tokens == ("- 0,16",)
        assert verify("Saldo - 0,16.", BOTH_SIGNS).grounded

    def test_a_quote_of_the_same_text_is_supported_by_its_literal(self) -> None:
        chunk = "El prorrateo es (40,00 \u2212 28,00) \u00d7 15/30 = USD 6,00, más IVA."
        assert verify("Según nuestras políticas: " + chunk, chunk).grounded
        quoted = verify(
            "El prorrateo es (40,00 - 28,00).", "Fibra 100 USD 28.00; Fibra 300 USD 40.00"
        )
        assert quoted.unsupported_tokens == ("- 28,00",)

    def test_as_evidence_it_supports_nothing_but_its_literal(self) -> None:
        evidence = "El prorrateo es (40,00 \u2212 28,00) \u00d7 15/30."
        assert verify("El plan cuesta USD 28,00.", evidence).unsupported_tokens == ("28,00",)
        assert verify("El plan cuesta USD -28,00.", evidence).unsupported_tokens == ("-28,00",)

    def test_a_list_bullet_is_not_a_sign(self) -> None:
        answer = "Tus cargos:\n- USD 28,00\n  - USD 4,48\n\u2212 USD 5,00"
        assert verify(answer, "plan USD 28.00; tax USD 4.48; reconnection USD 5.00").grounded
        assert not verify(answer, "plan USD -28.00; tax USD -4.48; reconnection USD -5.00").grounded


class TestHyphensThatAreNotSigns:
    @pytest.mark.parametrize(
        ("answer", "evidence"),
        [
            ("Vence el 2026-11-20.", "due 2026-11-20"),
            ("Del 05/11/2026 - 04/12/2026.", 'plan_charge "Fibra 100 (05/11/2026 - 04/12/2026)"'),
            ("Del 13/11/2026 \u2013 24/12/2026.", "period 2026-11-13 to 2026-12-24"),
            ("Tu teléfono 0412-1234567.", "phone 0412-1234567"),
            ("Tu teléfono 0412\u20131234567.", "phone 0412-1234567"),
            ("Tu cédula V-12345678.", "national ID V-12345678"),
            ("Tu cédula V-12.345.678.", "national ID V-12345678"),
            ("Tu cédula 12345678.", "national ID V-12345678"),
            ("Factura INV-2026-004281.", "Invoice INV-2026-004281"),
        ],
    )
    def test_a_hyphen_after_a_letter_or_digit_is_part_of_the_token(
        self, answer: str, evidence: str
    ) -> None:
        assert verify(answer, evidence).grounded

    def test_a_negative_number_is_not_an_identifier(self) -> None:
        assert verify("Tu cédula 12345678.", "-12345678").unsupported_tokens == ("12345678",)
        assert verify("Debes 1.234.567.", "total -1234567").unsupported_tokens == ("1.234.567",)

    def test_an_identifier_does_not_gain_a_minus(self) -> None:
        result = verify("Tu cédula es -12.345.678.", "national ID V-12345678")
        assert result.unsupported_tokens == ("-12.345.678",)


def _discounted(discount: str, paid: str, currency: str = "USD") -> dict[str, Any]:
    return _invoice(
        "INV-2026-004500",
        "1000004821",
        "open",
        "2026-12-05",
        "2026-12-20",
        ("2026-12-05", "2027-01-04"),
        [
            ("plan_charge", "Fibra 100", "28.00"),
            ("discount", "Promoción", discount),
            ("tax", "IVA 16%", "4.45"),
        ],
        "27.84",
        "4.45",
        "32.29",
        paid,
        "32.13",
        currency,
    )


def _request(result: ToolResult, intent: Intent, language: Language) -> NarrationRequest:
    return NarrationRequest("?", language, intent, None, (result,), ())


def _grounded(reply: str, result: ToolResult) -> GroundingResult:
    assert result.evidence_text is not None
    return verify(reply, result.evidence_text)


@pytest.mark.parametrize("language", list(Language))
@pytest.mark.parametrize("currency", ["USD", "VES"])
def test_a_template_invoice_with_a_discount_is_grounded_and_a_dropped_minus_is_caught(
    language: Language, currency: str
) -> None:
    invoice = _discounted("-0.16", "0.00", currency)
    result = ToolResult("invoice_by_number", True, _invoice_evidence(invoice), invoice)
    request = _request(result, Intent.INVOICE, language)
    narration = TemplateNarrator().narrate(request)
    assert _grounded(narration.reply, result).grounded
    corrupted, injection = corrupt(narration, NarrationFault.DROPPED_MINUS, request)
    assert injection.original is not None
    assert (injection.original, injection.corrupted) == (
        "-0,16" if language is Language.SPANISH else "-0.16",
        injection.original[1:],
    )
    assert _grounded(corrupted.reply, result).unsupported_tokens == (injection.corrupted,)


def test_a_discount_equal_to_another_figure_unsigned_is_not_a_fault_to_inject() -> None:
    invoice = _discounted("-0.16", "0.16")
    result = ToolResult("invoice_by_number", True, _invoice_evidence(invoice), invoice)
    request = _request(result, Intent.INVOICE, Language.SPANISH)
    narration = TemplateNarrator().narrate(request)
    assert not corrupt(narration, NarrationFault.DROPPED_MINUS, request)[1].applied
    assert _grounded(narration.reply.replace("-0,16", "0,16"), result).grounded


@pytest.mark.parametrize("language", list(Language))
def test_template_bill_changes_of_negative_lines_are_grounded(language: Language) -> None:
    previous = dict(
        _discounted("-0.16", "32.13"),
        invoice_number="INV-2026-004400",
        issue_date="2026-11-05",
        status="paid",
    )
    bigger_discount = _discounted("-0.50", "0.00")
    for latest, before in (
        (bigger_discount, previous),
        (_discounted("-0.16", "0.00"), dict(previous, line_items=[])),
    ):
        result = _bill_change([latest, before])
        reply = TemplateNarrator().narrate(_request(result, Intent.BILL_CHANGE, language)).reply
        assert _grounded(reply, result).grounded, reply
