"""Humanizer, money formatting, masking, escalation summaries and the state gate."""

from __future__ import annotations

import pytest

from billing_toolkit.assistant.guards.humanizer import humanize
from billing_toolkit.assistant.store.model import Conversation, ConversationState
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.masking import mask_personal
from billing_toolkit.assistant.text.money import format_amount
from billing_toolkit.assistant.turn.gate import pass_gate
from billing_toolkit.assistant.vocabulary.escalation import (
    EscalationContext,
    EscalationReason,
    escalate,
)
from billing_toolkit.contract.masking import mask


class TestHumanizer:
    def test_markdown_becomes_plain_whatsapp_text(self) -> None:
        text = "## Saldo\n\n\n**Debes** USD 45,00.  \n- una\n* dos\n`x` [ver](https://f.example)"
        assert (
            humanize(text) == "Saldo\n\nDebes USD 45,00.\n• una\n• dos\nx ver (https://f.example)"
        )

    def test_long_replies_are_cut_at_a_line_then_sentence_then_word(self) -> None:
        assert humanize("línea uno\nlínea dos larga", max_chars=14) == "línea uno…"
        assert humanize("Uno. Dos tres. Cuatro cinco.", max_chars=20) == "Uno. Dos tres.…"
        assert humanize("uno dos tres cuatro", max_chars=12) == "uno dos…"
        assert humanize("a" * 50, max_chars=10) == "a" * 9 + "…"

    def test_short_replies_are_untouched(self) -> None:
        assert humanize("Tu saldo es USD 45,00.") == "Tu saldo es USD 45,00."


class TestMoney:
    @pytest.mark.parametrize(
        ("amount", "currency", "language", "text"),
        [
            ("45.00", "USD", Language.SPANISH, "USD 45,00"),
            ("1234.56", "VES", Language.SPANISH, "Bs. 1.234,56"),
            ("1234567.00", "VES", Language.SPANISH, "Bs. 1.234.567,00"),
            ("-5.00", "USD", Language.SPANISH, "USD -5,00"),
            ("0.50", "USD", Language.ENGLISH, "USD 0.50"),
            ("1450.00", "VES", Language.ENGLISH, "Bs. 1,450.00"),
        ],
    )
    def test_api_amounts_are_regrouped_never_changed(
        self, amount: str, currency: str, language: Language, text: str
    ) -> None:
        assert format_amount(amount, currency, language) == text

    @pytest.mark.parametrize(
        ("amount", "currency"),
        [
            ("45", "USD"),
            ("45.0", "USD"),
            ("1,234.56", "USD"),
            ("45.00", "EUR"),
            ("045.00", "USD"),
        ],
    )
    def test_anything_but_a_contract_amount_is_refused(self, amount: str, currency: str) -> None:
        with pytest.raises(ValueError, match="expected"):
            format_amount(amount, currency, Language.SPANISH)


def test_personal_identifiers_are_masked_but_invoices_are_not() -> None:
    """The hiding rule is the project's one policy (`contract.masking.hide`: first and last
    two digits kept), replacing the assistant's former `•`-last-four on purpose, so the same
    phone reads the same in the simulator log, the assistant trace and the conformance
    report."""
    text = "cuenta 1000004821, tel +584121234567, V-12.345.678, INV-2026-004281"
    assert mask_personal(text) == (
        "cuenta 10******21, tel +58********67, V-12.***.*78, INV-2026-004281"
    )


@pytest.mark.parametrize(
    "text",
    [
        "tel +584121234567",
        "cuenta 1000004821",
        "V-12345678",
        "J-12345678-9",
        "0412-1234567",
    ],
)
def test_an_identifier_the_kernel_masks_reads_the_same_here(text: str) -> None:
    assert mask_personal(text) == mask(text)


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("tel +58 412-1234567", "tel +58 ***-*****67"),
        ("cédula v 12345678", "cédula v 12****78"),
        ("cuenta 10000048", "cuenta 10****48"),
        ("V\u201312345678", "V\u201312****78"),
    ],
)
def test_spellings_the_kernel_does_not_know_are_masked_by_its_rule(text: str, masked: str) -> None:
    """The assistant finds more spellings than the kernel's `mask`; it hides them the same way."""
    assert mask_personal(text) == masked


class TestEscalation:
    def test_the_summary_names_customer_failure_and_what_was_stopped(self) -> None:
        escalation = escalate(
            EscalationReason.UNGROUNDED_OUTPUT,
            EscalationContext(
                phone="+584121234567",
                message="mi saldo",
                account_number="1000004821",
                customer_name="María Rodríguez",
                capability="balance",
                stopped_reply="Debes Bs. 4.500",
                unsupported=("4.500",),
            ),
        )
        assert escalation.summary.es.splitlines() == [
            (
                "El bot iba a dar una cifra, identificador o cita sin respaldo; se detuvo por "
                "seguridad."
            ),
            "Cliente: María Rodríguez (cuenta 1000004821, teléfono +584121234567).",
            "Mensaje: «mi saldo»",
            "Capacidad: balance.",
            "Respuesta detenida: «Debes Bs. 4.500»",
            "Motivo: 4.500",
        ]
        assert escalation.summary.en.startswith("The bot was about to state a figure")
        assert escalation.to_dict()["context"]["unsupported"] == ("4.500",)

    def test_an_unidentified_customer_is_described_by_phone(self) -> None:
        escalation = escalate(
            EscalationReason.TOOL_ERROR,
            EscalationContext(
                phone="+584161234000", message="hola", tool_error="unavailable: HTTP 503"
            ),
        )
        assert escalation.summary.en.splitlines() == [
            "Could not query the billing system (possible outage).",
            "Unidentified customer (phone +584161234000).",
            "Message: “hola”",
            "Error: unavailable: HTTP 503",
        ]

    @pytest.mark.parametrize("reason", list(EscalationReason))
    def test_every_reason_has_a_summary_in_both_languages(self, reason: EscalationReason) -> None:
        escalation = escalate(reason, EscalationContext(phone="+584121234567", message="x"))
        assert escalation.summary.es and escalation.summary.en
        assert escalation.summary.es != escalation.summary.en


@pytest.mark.parametrize(
    ("state", "proceed"),
    [
        (ConversationState.BOT, True),
        (ConversationState.WAITING_FOR_HUMAN, False),
        (ConversationState.HUMAN_ACTIVE, False),
    ],
)
def test_the_gate_lets_the_bot_speak_only_in_bot_state(
    state: ConversationState, proceed: bool
) -> None:
    decision = pass_gate(Conversation("fibranet", "+584121234567", state=state))
    assert decision.proceed is proceed
    assert decision.state is state
