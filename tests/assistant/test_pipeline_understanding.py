"""The pipeline on what subscribers actually write: variants of an invoice number, several
intents in one message, closings, service outages and examples that are not their bill."""

from __future__ import annotations

import pytest

from billing_toolkit.assistant.store import SqlConversationStore
from billing_toolkit.assistant.turn.pipeline import AssistantPipeline
from billing_toolkit.assistant.turn.result import Action
from billing_toolkit.assistant.vocabulary.escalation import EscalationReason
from tests.assistant.assistant_fakes import (
    MARIA_PHONE,
    TENANT,
    FakeCapabilities,
    FakeChunk,
    FakeRetriever,
)


@pytest.mark.parametrize(
    "message",
    [
        "factura INV 2026 004281",
        "INV_2026_004281",
        "la INV/2026/004281",
        "ver 2026-004281",
        "factura \u0406NV-2026-004281",
    ],
)
def test_a_variant_is_read_back_with_a_suggestion_and_nothing_else(
    pipeline: AssistantPipeline, capabilities: FakeCapabilities, message: str
) -> None:
    result = pipeline.handle(MARIA_PHONE, message)
    assert result.action is Action.REPLY
    assert "¿Quisiste decir INV-2026-004281? Responde SÍ para verla." in str(result.reply)
    assert "38,28" not in str(result.reply)
    assert capabilities.called("invoice_by_number") == []


def test_yes_shows_the_suggested_invoice(pipeline: AssistantPipeline) -> None:
    pipeline.handle(MARIA_PHONE, "factura INV 2026 004281")
    shown = pipeline.handle(MARIA_PHONE, "sí")
    assert "Factura INV-2026-004281" in str(shown.reply) and "38,28" in str(shown.reply)


def test_anything_but_yes_drops_the_suggestion(
    pipeline: AssistantPipeline, store: SqlConversationStore
) -> None:
    pipeline.handle(MARIA_PHONE, "factura INV 2026 004281")
    pipeline.handle(MARIA_PHONE, "¿cuánto debo?")
    assert store.get(TENANT, MARIA_PHONE).pending_question is None
    assert "Factura INV-2026-004281" not in str(pipeline.handle(MARIA_PHONE, "sí").reply)


def test_a_trailing_letter_is_never_dropped(
    pipeline: AssistantPipeline, capabilities: FakeCapabilities
) -> None:
    result = pipeline.handle(MARIA_PHONE, "factura INV-2026-004281A")
    assert "Leí «INV-2026-004281A»" in str(result.reply)
    assert capabilities.called("invoice_by_number") == []


def test_a_variant_of_nobody_s_invoice_is_not_found(pipeline: AssistantPipeline) -> None:
    result = pipeline.handle(MARIA_PHONE, "factura INV 2026 009999")
    assert str(result.reply).startswith("No encontré la factura INV 2026 009999")


def test_full_width_digits_are_the_same_invoice(pipeline: AssistantPipeline) -> None:
    result = pipeline.handle(MARIA_PHONE, "factura ＩＮＶ－２０２６－００４２８１")
    assert "Factura INV-2026-004281" in str(result.reply)


def test_thanks_is_a_closing_not_the_greeting_again(pipeline: AssistantPipeline) -> None:
    reply = str(pipeline.handle(MARIA_PHONE, "gracias").reply)
    assert reply.startswith("¡Con gusto") and "Soy el asistente" not in reply


def test_balance_and_how_to_pay_are_both_answered(pipeline: AssistantPipeline) -> None:
    result = pipeline.handle(MARIA_PHONE, "cuanto debo y como pago por zelle")
    assert result.action is Action.REPLY
    assert "saldo neto de USD 38,28" in str(result.reply)
    assert "Según nuestras políticas" in str(result.reply) and result.citations


def test_a_cancellation_hands_over_with_what_they_want(pipeline: AssistantPipeline) -> None:
    result = pipeline.handle(MARIA_PHONE, "quiero cancelar mi plan")
    assert result.reason is EscalationReason.CAPABILITY_MISSING
    assert "Quiere: cancelar el servicio" in result.agent_summary.es  # type: ignore[union-attr]


def test_off_topic_hands_over_without_quoting_a_chunk(pipeline: AssistantPipeline) -> None:
    result = pipeline.handle(MARIA_PHONE, "¿cuál es la capital de Francia?")
    assert result.reason is EscalationReason.NO_CONTEXT


def test_no_internet_is_answered_from_their_service_state(pipeline: AssistantPipeline) -> None:
    result = pipeline.handle(MARIA_PHONE, "no tengo internet")
    assert "tu servicio está" in str(result.reply)


class _ExampleRetriever(FakeRetriever):
    """Returns the knowledge base's worked example beside the policy."""

    def search(self, query: str, top_k: int = 6) -> list[FakeChunk]:
        example = FakeChunk(
            "es-example",
            "Ejemplo: Cuenta 1000000123, total USD 32,48.",
            "es",
            vector_score=0.99,
            matched_by_text=True,
            kind="worked_example",
        )
        return [example, *super().search(query, top_k)]


def test_a_worked_example_is_never_narrated_as_their_bill(make_pipeline) -> None:  # type: ignore[no-untyped-def]
    result = make_pipeline(retriever=_ExampleRetriever()).handle(MARIA_PHONE, "¿cuánto debo?")
    assert "32,48" not in str(result.reply) and "1000000123" not in str(result.reply)
