"""Whole conversations with the LLM narrator against a real chat-completions server on loopback.

The server (`chat_server.py`) answers like a model would: correct narrations in the wording a
model picks (long dates, abbreviated months, weekdays, amounts in words, figures said of
their invoice), and faulty ones of every class the narration-fault injector knows. The
narrator reaches it through its real HTTP client, configured the way a deployment points it
at a real model (`ASSISTANT_LLM_BASE_URL`, `ASSISTANT_LLM_MODEL`); every correct reply is
delivered and every faulty one escalates `UNGROUNDED_OUTPUT`.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from billing_toolkit.assistant.evaluation.narration_faults import NarrationFault
from billing_toolkit.assistant.narrator import ChatCompletionsNarrator
from billing_toolkit.assistant.turn.result import Action
from billing_toolkit.assistant.vocabulary.escalation import EscalationReason
from tests.assistant.assistant_fakes import (
    JOSE_PHONE,
    MARIA_PHONE,
    FakeCapabilities,
    PipelineFactory,
)
from tests.assistant.chat_server import ScriptedModel, ScriptedReply, serving

BALANCE_ES = "¿Cuál es mi saldo?"
BALANCE_EN = "What is my balance?"
INVOICES = "mis facturas"
PAYMENT = "¿recibieron mi pago?"
PLAN = "¿qué plan tengo?"

Turn = tuple[str, str]
"""A subscriber's message and the model's reply to it."""

CORRECT: dict[str, tuple[str, list[Turn]]] = {
    "maria-spanish": (
        MARIA_PHONE,
        [
            (
                BALANCE_ES,
                (
                    "Hola, María. Tu saldo pendiente es de USD 38,28 y vence el viernes 20 de "
                    "noviembre de 2026. No tienes montos vencidos (USD 0,00)."
                ),
            ),
            (
                INVOICES,
                (
                    "Tienes dos facturas: la INV-2026-004281 por USD 38,28, que vence el 20 de nov. "
                    "de 2026, y la INV-2026-004102 por USD 32,48, que ya está pagada."
                ),
            ),
            (
                PAYMENT,
                (
                    "Sí, recibimos tu pago PAY-0000012345 de treinta y dos dólares con cuarenta y "
                    "ocho centavos el lunes 12 de octubre de 2026; se aplicó a la factura "
                    "INV-2026-004102."
                ),
            ),
            (
                PLAN,
                (
                    "Estás en el plan Fibra 100 (PLN-FIBRA-100) por USD 28 al mes. El 05-dic-2026 "
                    "pasas al plan PLN-FIBRA-300, que cuesta 40,00 dólares."
                ),
            ),
        ],
    ),
    "maria-english": (
        MARIA_PHONE,
        [
            (
                BALANCE_EN,
                (
                    "Hi María! Account 1000004821 shows USD 38.28 due by Friday, Nov. 20th, 2026; "
                    "nothing is overdue."
                ),
            ),
            (
                INVOICES,
                (
                    "Invoice INV-2026-004281 is thirty-eight dollars and twenty-eight cents, due "
                    "on November 20, 2026; INV-2026-004102 (USD 32.48) is already paid."
                ),
            ),
        ],
    ),
    "jose-bolivares": (
        JOSE_PHONE,
        [
            (
                "¿cuánto debo?",
                (
                    "José, no tienes deuda: tienes un saldo a favor de Bs. 250,00 (doscientos "
                    "cincuenta bolívares)."
                ),
            ),
        ],
    ),
}

FAULTY: dict[str, tuple[str, str, str]] = {
    NarrationFault.CURRENCY_SWAP: (MARIA_PHONE, BALANCE_ES, "Tu saldo pendiente es de Bs. 38,28."),
    NarrationFault.WRONG_VALUE_IN_WORDS: (
        MARIA_PHONE,
        BALANCE_ES,
        "Debes treinta y ocho dólares con ochenta y dos centavos.",
    ),
    NarrationFault.CROSS_RECORD_FIGURE: (
        MARIA_PHONE,
        INVOICES,
        "La factura INV-2026-004281 es de USD 32,48 y la INV-2026-004102 también.",
    ),
    NarrationFault.CROSS_RECORD_DATE: (
        MARIA_PHONE,
        INVOICES,
        "La factura INV-2026-004102 vence el 20 de noviembre de 2026.",
    ),
    NarrationFault.WRONG_WEEKDAY: (
        MARIA_PHONE,
        BALANCE_EN,
        "You owe USD 38.28, due Thursday, November 20, 2026.",
    ),
    NarrationFault.WRONG_FIELD_FIGURE: (
        MARIA_PHONE,
        BALANCE_ES,
        "Debes USD 38,28 y tienes un saldo a favor de USD 38,28.",
    ),
    NarrationFault.WRONG_FIELD_DATE: (
        MARIA_PHONE,
        INVOICES,
        "Tu factura INV-2026-004281 vence el 5 de noviembre de 2026: ya está vencida.",
    ),
    NarrationFault.WRONG_PAYMENT_METHOD: (
        MARIA_PHONE,
        "¿recibieron mi pago?",
        "Sí: recibimos tu pago PAY-0000012345 por USD 32,48 (efectivo).",
    ),
    NarrationFault.MAGNITUDE: (MARIA_PHONE, BALANCE_ES, "Debes USD 3.828."),
    NarrationFault.TRANSPOSED_DIGITS: (MARIA_PHONE, BALANCE_ES, "Debes USD 38,82."),
    NarrationFault.NEIGHBOURING_INVOICE: (
        MARIA_PHONE,
        INVOICES,
        "Tu factura INV-2026-004282 está pendiente.",
    ),
    NarrationFault.CHANGED_DATE: (MARIA_PHONE, BALANCE_ES, "Vence el 21 de noviembre de 2026."),
    NarrationFault.DROPPED_MINUS: (JOSE_PHONE, "¿cuánto debo?", "Tu saldo neto es Bs. 212,50."),
    NarrationFault.INVENTED_CITATION: (MARIA_PHONE, BALANCE_ES, "Debes USD 38,28."),
    "relative_date": (MARIA_PHONE, BALANCE_ES, "Debes USD 38,28 y vence mañana."),
}


@pytest.fixture(scope="module")
def model() -> ScriptedModel:
    return ScriptedModel()


@pytest.fixture(scope="module")
def narrator(model: ScriptedModel) -> Iterator[ChatCompletionsNarrator]:
    with serving(model) as base_url:
        yield ChatCompletionsNarrator.from_env(
            {
                "ASSISTANT_LLM_BASE_URL": base_url,
                "ASSISTANT_LLM_MODEL": "scripted-model",
                "ASSISTANT_LLM_TIMEOUT": "10",
            }
        )


@pytest.mark.parametrize("name", list(CORRECT))
def test_every_correct_narration_is_delivered(
    name: str,
    model: ScriptedModel,
    narrator: ChatCompletionsNarrator,
    make_pipeline: PipelineFactory,
) -> None:
    phone, turns = CORRECT[name]
    model.script(*(ScriptedReply(reply) for _, reply in turns))
    pipeline = make_pipeline(narrator=narrator)
    for message, reply in turns:
        result = pipeline.handle(phone, message)
        assert (result.action, result.reason, result.reply) == (Action.REPLY, None, reply)
    assert len(model.requests) == len(turns)
    prompt = model.requests[0]["messages"][1]["content"]
    assert "EVIDENCE:" in prompt and turns[0][0] in prompt


@pytest.mark.parametrize("fault", list(FAULTY))
def test_every_faulty_narration_escalates(
    fault: str,
    model: ScriptedModel,
    narrator: ChatCompletionsNarrator,
    make_pipeline: PipelineFactory,
    capabilities: FakeCapabilities,
) -> None:
    capabilities.world["fibranet"]["1000007310"].balance.update(net_balance="-212.50")
    phone, message, reply = FAULTY[fault]
    cited = ("kb-invented-0001",) if fault == NarrationFault.INVENTED_CITATION else ()
    model.script(ScriptedReply(reply, cited))
    result = make_pipeline(narrator=narrator).handle(phone, message)
    assert (result.action, result.reason) == (Action.ESCALATE, EscalationReason.UNGROUNDED_OUTPUT)
    assert result.reply != reply
    assert model.requests[0]["model"] == "scripted-model"


def test_every_fault_class_is_scripted() -> None:
    assert set(NarrationFault) <= set(FAULTY)
