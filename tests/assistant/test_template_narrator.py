"""The template narrator: the API's figures, es-VE or verbatim, never computed."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from billing_toolkit.assistant.guards.grounding import GroundingResult, GroundingVerifier
from billing_toolkit.assistant.narrator import (
    EvidenceChunk,
    NarrationError,
    NarrationRequest,
    TemplateNarrator,
)
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.vocabulary.intents import Intent
from billing_toolkit.client.tool_result import ToolResult
from tests.assistant.assistant_fakes import (
    JOSE_INVOICE,
    MARIA_CURRENT,
    MARIA_PREVIOUS,
    _balance_evidence,
    _bill_change,
    _payment_evidence,
)
from tests.client import payloads


def narrate(
    intent: Intent,
    *results: ToolResult,
    language: Language = Language.SPANISH,
    chunks: tuple[EvidenceChunk, ...] = (),
) -> str:
    request = NarrationRequest("?", language, intent, None, results, chunks)
    return TemplateNarrator().narrate(request).reply


def quote(question: str, chunk: EvidenceChunk) -> str:
    """The policy answer to `question` from `chunk` alone, in Spanish."""
    request = NarrationRequest(question, Language.SPANISH, Intent.POLICY, None, (), (chunk,))
    return TemplateNarrator().narrate(request).reply


def tool(
    capability: str, data: dict[str, Any] | None, evidence: str | None = "evidence"
) -> ToolResult:
    return ToolResult(capability, True, evidence, data)


class TestBillChange:
    def test_a_decrease_is_stated_with_its_direction_not_a_sign(self) -> None:
        cheaper = dict(MARIA_PREVIOUS, invoice_number="INV-2026-004400", issue_date="2026-12-05")
        result = _bill_change([cheaper, MARIA_CURRENT])
        reply = narrate(Intent.BILL_CHANGE, result)
        assert "El total bajó USD 5,80." in reply
        assert "• Reconexión: ya no aparece." in reply
        assert "• IVA: bajó USD 0,80." in reply
        assert result.evidence_text is not None
        assert (
            GroundingVerifier()
            .verify(
                answer=reply,
                used_chunk_ids=[],
                retrieved_chunk_ids=[],
                evidence_texts=[],
                tool_result_texts=[result.evidence_text],
            )
            .grounded
        )

    def test_an_unchanged_total_and_a_kind_billed_twice(self) -> None:
        data = {
            "latest": dict(
                MARIA_CURRENT,
                line_items=[
                    {"kind": "discount", "description": "a", "amount": "-1.00"},
                    {"kind": "discount", "description": "b", "amount": "-2.00"},
                ],
            ),
            "previous": MARIA_PREVIOUS,
            "total_difference": "0.00",
            "appeared": ["discount"],
            "disappeared": [],
            "changed": {},
        }
        reply = narrate(Intent.BILL_CHANGE, tool("bill_change", data), language=Language.ENGLISH)
        assert "The total did not change." in reply
        assert "• Discount: new charge." in reply  # the sum of two lines is not the narrator's

    def test_invoices_in_different_currencies_are_not_compared(self) -> None:
        data = {
            "latest": JOSE_INVOICE,
            "previous": MARIA_PREVIOUS,
            "total_difference": None,
            "appeared": [],
            "disappeared": [],
            "changed": {},
        }
        reply = narrate(Intent.BILL_CHANGE, tool("bill_change", data))
        assert reply.endswith("Están en monedas distintas, así que no las comparo.")
        assert "Bs. 1.682,00" in reply

    def test_a_single_invoice_has_nothing_to_compare(self) -> None:
        reply = narrate(
            Intent.BILL_CHANGE, _bill_change([MARIA_CURRENT]), language=Language.ENGLISH
        )
        assert reply == "You have no invoice before INV-2026-004281 to compare it with."


class TestOtherIntents:
    def test_a_payment_with_credit_left_over(self) -> None:
        payment = {
            "payment_id": "PAY-0000000777",
            "account_number": "1000004821",
            "amount": "50.00",
            "currency": "USD",
            "method": "zelle",
            "reference": None,
            "received_at": "2026-11-02T13:00:00Z",
            "allocations": [],
            "unapplied_amount": "50.00",
        }
        reply = narrate(
            Intent.LAST_PAYMENT,
            tool("last_payment", {"payment": payment}),
            language=Language.ENGLISH,
        )
        assert reply == (
            "Your last recorded payment is PAY-0000000777, on November 2, 2026, for "
            "USD 50.00 (Zelle). USD 50.00 became credit on your account."
        )
        assert (
            GroundingVerifier()
            .verify(
                answer=reply,
                used_chunk_ids=[],
                retrieved_chunk_ids=[],
                evidence_texts=[],
                tool_result_texts=[_payment_evidence("1000004821", payment)],
            )
            .grounded
        )

    def test_a_scheduled_change_without_catalogue_details_names_the_plan_id(self) -> None:
        subscription = {
            "status": "active",
            "next_billing_date": None,
            "pending_change": {"plan_id": "PLN-FIBRA-600", "effective_date": "2027-01-05"},
            "plan": {
                "plan_id": "PLN-FIBRA-50",
                "name": "Fibra 50",
                "download_mbps": 50,
                "upload_mbps": 25,
                "monthly_price": "20.00",
                "currency": "USD",
            },
        }
        reply = narrate(
            Intent.PLAN, tool("plan", {"subscription": subscription, "pending_plan": None})
        )
        assert reply.endswith(
            "Tienes un cambio programado al plan PLN-FIBRA-600 a partir del 5 de enero de 2027."
        )
        assert "próxima factura" not in reply

    def test_no_invoices(self) -> None:
        reply = narrate(Intent.INVOICES, tool("invoices", {"invoices": []}))
        assert reply == "No encontré facturas con ese criterio en tu cuenta."

    def test_several_invoice_results_are_narrated_one_after_the_other(self) -> None:
        reply = narrate(
            Intent.INVOICE,
            tool("invoice_by_number", MARIA_CURRENT),
            tool("invoice_by_number", MARIA_PREVIOUS),
        )
        assert reply.index("INV-2026-004281") < reply.index("\n\nFactura INV-2026-004102")


class TestFallbacks:
    def test_data_of_an_unknown_shape_is_quoted_from_the_evidence(self) -> None:
        result = ToolResult(
            "balance", True, "Balance of account 1000004821: USD 45.00.", {"amount": 45}
        )
        assert narrate(Intent.BALANCE, result) == (
            "Esto es lo que indica el sistema de facturación: "
            "Balance of account 1000004821: USD 45.00."
        )

    def test_an_amount_that_is_not_a_contract_amount_is_not_reformatted(self) -> None:
        data = {
            "account_number": "1000004821",
            "currency": "USD",
            "amount_due": "45",
            "overdue_amount": "0.00",
            "credit_balance": "0.00",
            "net_balance": "45",
            "next_due_date": None,
        }
        reply = narrate(
            Intent.BALANCE, tool("balance", data, "amount due USD 45"), language=Language.ENGLISH
        )
        assert reply == "This is what the billing system shows: amount due USD 45"

    def test_no_data_and_no_evidence_is_a_narration_error(self) -> None:
        with pytest.raises(NarrationError, match="cannot narrate balance"):
            narrate(Intent.BALANCE, tool("balance", None, None))

    def test_a_billing_intent_without_results_is_a_narration_error(self) -> None:
        with pytest.raises(NarrationError, match="no tool result"):
            narrate(Intent.BALANCE)


class TestPolicy:
    CHUNKS = (
        EvidenceChunk("en-1", "## Late fee\nA one-time 5% late fee.", "en"),
        EvidenceChunk("es-1", "## Mora\nUn recargo único del 5%.", "es"),
    )

    def test_the_best_chunk_in_the_subscribers_language_is_quoted_and_cited(self) -> None:
        request = NarrationRequest("?", Language.SPANISH, Intent.POLICY, None, (), self.CHUNKS)
        narration = TemplateNarrator().narrate(request)
        assert narration == narration.__class__(
            "Según nuestras políticas: Un recargo único del 5%.", ("es-1",)
        )

    @pytest.mark.parametrize(
        "question", ["¿cuándo me cortan el servicio?", "¿me van a cortar el internet?"]
    )
    def test_a_cut_is_the_suspension_the_policy_speaks_of(self, question: str) -> None:
        """The reconnection chunk ranked first and shares "servicio": the subscriber's
        "cortar" is the policy's "suspender"."""
        chunks = (
            EvidenceChunk("es-r", "Si el servicio no volvió 24 horas después, escríbenos.", "es"),
            EvidenceChunk(
                "es-s", "Si la factura sigue sin pagarse, el servicio se suspende.", "es"
            ),
        )
        request = NarrationRequest(question, Language.SPANISH, Intent.POLICY, None, (), chunks)
        assert TemplateNarrator().narrate(request).used_chunk_ids == ("es-s",)

    def test_the_chunk_whose_heading_shares_the_question_wins_a_tie(self) -> None:
        chunks = (
            EvidenceChunk("es-c", "Tienes 15 días para pagar.", "es", heading="Ciclo"),
            EvidenceChunk(
                "es-m",
                "Puedes pagar por Pago Móvil.",
                "es",
                heading="Métodos de pago y dónde pagar",
            ),
        )
        request = NarrationRequest(
            "¿cómo puedo pagar?", Language.SPANISH, Intent.POLICY, None, (), chunks
        )
        assert TemplateNarrator().narrate(request).used_chunk_ids == ("es-m",)

    def test_another_language_is_better_than_nothing(self) -> None:
        reply = narrate(Intent.POLICY, language=Language.SPANISH, chunks=self.CHUNKS[:1])
        assert reply == "Según nuestras políticas: A one-time 5% late fee."

    def test_the_sentences_that_answer_are_quoted_not_the_whole_chunk(self) -> None:
        chunk = EvidenceChunk(
            "es-9",
            "Zelle solo para cuentas en USD. La oficina abre a las "
            "ocho. El pago en efectivo se hace en la oficina.",
            "es",
        )
        assert quote("¿puedo pagar en efectivo?", chunk) == (
            "Según nuestras políticas: El pago en efectivo se hace en la oficina."
        )

    def test_an_example_is_quoted_only_labelled_as_one(self) -> None:
        chunk = EvidenceChunk("es-e", "Ejemplo: total USD 32,48.", "es", kind="worked_example")
        reply = narrate(Intent.POLICY, language=Language.SPANISH, chunks=(chunk,))
        assert "Ejemplo ilustrativo (no corresponde a tu cuenta)" in reply

    @pytest.mark.parametrize(
        "illustration",
        [
            "Si tu día es el 5, la factura emitida el 5 de marzo cubre del 5 de marzo al 4 de abril.",
            "Por ejemplo, una factura emitida el 5 de enero vence el 20 de enero.",
            "If your billing day is the 12th, the invoice of 12 May covers 12 May to 11 June.",
            "For example, a USD 32.48 invoice paid late costs USD 1.62 more.",
        ],
    )
    def test_a_worked_example_inside_a_policy_paragraph_is_left_out(
        self, illustration: str
    ) -> None:
        chunk = EvidenceChunk(
            "es-c",
            "La factura cubre desde tu día de facturación hasta el "
            "día anterior al siguiente. " + illustration,
            "es",
        )
        request = NarrationRequest(
            "¿qué período cubre la factura?", Language.SPANISH, Intent.POLICY, None, (), (chunk,)
        )
        reply = TemplateNarrator().narrate(request).reply
        assert illustration not in reply and "hasta el día anterior al siguiente" in reply

    def test_a_chunk_of_illustrations_only_is_quoted_labelled(self) -> None:
        chunk = EvidenceChunk(
            "es-d", "Por ejemplo, una factura emitida el 5 de enero vence el 20 de enero.", "es"
        )
        reply = narrate(Intent.POLICY, language=Language.SPANISH, chunks=(chunk,))
        assert reply.startswith("Según nuestras políticas: Ejemplo ilustrativo (no corresponde")

    def test_no_chunk_is_a_narration_error(self) -> None:
        with pytest.raises(NarrationError, match="knowledge-base chunk"):
            narrate(Intent.POLICY)


_CENTS = st.integers(min_value=-(10**9), max_value=10**11)


def _verdict(reply: str, evidence: str) -> GroundingResult:
    """The verifier on a reply that only the tool's evidence may back."""
    return GroundingVerifier().verify(
        answer=reply,
        used_chunk_ids=[],
        retrieved_chunk_ids=[],
        evidence_texts=[],
        tool_result_texts=[evidence],
    )


def _amount(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


@given(
    due=_CENTS,
    overdue=_CENTS,
    credit=_CENTS,
    net=_CENTS,
    currency=st.sampled_from(["USD", "VES"]),
    language=st.sampled_from(list(Language)),
    next_due=st.one_of(st.none(), st.dates().map(lambda d: d.isoformat())),
)
def test_every_balance_narration_is_grounded_in_its_evidence(
    due: int,
    overdue: int,
    credit: int,
    net: int,
    currency: str,
    language: Language,
    next_due: str | None,
) -> None:
    data = {
        "account_number": "1000004821",
        "currency": currency,
        "amount_due": _amount(due),
        "overdue_amount": _amount(overdue),
        "credit_balance": _amount(credit),
        "net_balance": _amount(net),
        "next_due_date": next_due,
        "as_of": "2026-11-29T10:00:00Z",
    }
    evidence = _balance_evidence(data)
    reply = narrate(Intent.BALANCE, tool("balance", data, evidence), language=language)
    assert not reply.startswith(("Esto es", "This is"))
    verdict = _verdict(reply, evidence)
    assert verdict.grounded, verdict.unsupported


def _verified(reply: str, evidence: str) -> bool:
    return _verdict(reply, evidence).grounded


class TestComputedFigures:
    """Days left and arrears: the capability computes them, the narrator only writes them, and
    the verifier holds the written figure to the computed one."""

    BALANCE = payloads.balance() | {"days_until_due": 11}
    BALANCE_EVIDENCE = (
        _balance_evidence(BALANCE)
        + " 11 days until the next due date 2026-12-10 (computed from as of 2026-11-29)."
    )

    def test_the_days_left_are_written_and_backed(self) -> None:
        reply = narrate(Intent.BALANCE, tool("balance", self.BALANCE, self.BALANCE_EVIDENCE))
        assert "Te quedan 11 días para pagar sin recargo." in reply
        assert _verified(reply, self.BALANCE_EVIDENCE)
        assert not _verified(reply.replace("11 días", "12 días"), self.BALANCE_EVIDENCE)

    def test_a_passed_due_date_gets_no_days_left(self) -> None:
        data = dict(self.BALANCE, days_until_due=-3)
        assert "Te quedan" not in narrate(Intent.BALANCE, tool("balance", data))

    def test_arrears_state_the_overdue_the_fees_and_the_days(self) -> None:
        data = {
            "account_number": "1000004821",
            "currency": "USD",
            "overdue_amount": "62.10",
            "late_fees": "1.62",
            "days_overdue": 40,
            "oldest_due_date": "2026-10-20",
            "overdue_invoices": ["INV-2026-004100", "INV-2026-004200"],
            "as_of": "2026-11-29",
        }
        evidence = (
            "Arrears of account 1000004821 as of 2026-11-29: overdue USD 62.10; overdue "
            "invoices INV-2026-004100, INV-2026-004200; late fees billed on them USD 1.62 "
            "(computed, sum of their late_fee lines); the oldest fell due 2026-10-20, 40 days "
            "ago (computed)."
        )
        reply = narrate(Intent.BALANCE, tool("arrears", data, evidence))
        assert reply == (
            "Tienes USD 62,10 vencido (INV-2026-004100, INV-2026-004200). De eso, USD 1,62 es "
            "recargo por mora ya facturado. La factura vencida más antigua venció el 20 de "
            "octubre de 2026 y lleva 40 días vencida."
        )
        assert _verified(reply, evidence)
        english = narrate(
            Intent.BALANCE, tool("arrears", data, evidence), language=Language.ENGLISH
        )
        assert english.endswith("has been overdue for 40 days.") and _verified(english, evidence)


def test_a_quote_keeps_the_whole_sentence_with_its_abbreviations_and_both_prices() -> None:
    chunk = EvidenceChunk(
        "es-7",
        "Atendemos de 8:00 a. m. a 5:00 p. m. en la oficina. El equipo cuesta USD 45,00 o "
        "Bs. 1.640,00 y se paga una vez.",
        "es",
    )
    assert quote("¿cuánto cuesta el equipo?", chunk) == (
        "Según nuestras políticas: El equipo cuesta USD 45,00 o Bs. 1.640,00 y se paga una vez."
    )
