"""Narration-fault injection: every corruption a model makes is caught by the verifier."""

from __future__ import annotations

import pytest

from billing_toolkit.assistant.evaluation.narration_faults import (
    FaultyNarrator,
    NarrationFault,
    corrupt,
)
from billing_toolkit.assistant.guards.grounding import GroundingVerifier
from billing_toolkit.assistant.narrator import (
    EvidenceChunk,
    Narration,
    NarrationRequest,
    TemplateNarrator,
)
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.turn.result import Action
from billing_toolkit.assistant.vocabulary.escalation import EscalationReason
from billing_toolkit.assistant.vocabulary.intents import Intent
from billing_toolkit.client.tool_result import ToolResult
from tests.assistant.assistant_fakes import (
    JOSE_PHONE,
    MARIA_PHONE,
    FakeCapabilities,
    PipelineFactory,
)
from tests.assistant.grounding_helpers import verify

EVIDENCE = (
    "Balance: amount due USD 45.00; net balance USD -12.50; invoice INV-2026-004281; "
    "next due date 2026-12-10."
)
REQUEST = NarrationRequest(
    "?",
    Language.SPANISH,
    Intent.BALANCE,
    None,
    (ToolResult("balance", True, EVIDENCE, {}),),
    (EvidenceChunk("kb-1", "La mora es del 5%.", "es"),),
)
REPLY = (
    "Factura INV-2026-004281: debes USD 45,00, saldo neto USD -12,50; vence el "
    "10 de diciembre de 2026."
)


@pytest.mark.parametrize(
    ("fault", "original", "corrupted"),
    [
        (NarrationFault.MAGNITUDE, "45,00", "4.500"),
        (NarrationFault.TRANSPOSED_DIGITS, "2026", "2062"),
        (NarrationFault.NEIGHBOURING_INVOICE, "INV-2026-004281", "INV-2026-004282"),
        (NarrationFault.CHANGED_DATE, "10 de diciembre de 2026", "11 de diciembre de 2026"),
        (NarrationFault.DROPPED_MINUS, "-12,50", "12,50"),
    ],
)
def test_each_fault_corrupts_the_first_token_it_applies_to(
    fault: NarrationFault, original: str, corrupted: str
) -> None:
    narration, injection = corrupt(Narration(REPLY, ()), fault, REQUEST)
    assert (injection.original, injection.corrupted, injection.applied) == (
        original,
        corrupted,
        True,
    )
    assert narration.reply == REPLY.replace(original, corrupted, 1)


def test_a_minus_is_dropped_wherever_the_verifier_reads_one() -> None:
    narration, injection = corrupt(
        Narration("Saldo neto -USD 12,50.", ()), NarrationFault.DROPPED_MINUS, REQUEST
    )
    assert (narration.reply, injection.original) == ("Saldo neto USD 12,50.", "-USD 12,50")
    verdict = GroundingVerifier().verify(
        answer=narration.reply,
        used_chunk_ids=[],
        retrieved_chunk_ids=[],
        evidence_texts=[],
        tool_result_texts=[EVIDENCE],
    )
    assert verdict.unsupported == ("12,50",)


def test_an_invented_citation_is_added_to_the_used_chunks() -> None:
    narration, injection = corrupt(
        Narration(REPLY, ("kb-1",)), NarrationFault.INVENTED_CITATION, REQUEST
    )
    assert narration == Narration(REPLY, ("kb-1", "kb-invented-0001"))
    assert injection.applied


def test_a_corruption_that_lands_on_other_evidence_is_skipped() -> None:
    request = NarrationRequest(
        "?",
        Language.SPANISH,
        Intent.BALANCE,
        None,
        (
            ToolResult(
                "balance", True, "net USD -45.00; credit USD 45.00; due 2026-12-10, 2026-12-11", {}
            ),
        ),
        (),
    )
    reply = "Neto USD -45,00, vence el 2026-12-10."
    assert not corrupt(Narration(reply, ()), NarrationFault.DROPPED_MINUS, request)[1].applied
    _, injection = corrupt(Narration(reply, ()), NarrationFault.CHANGED_DATE, request)
    assert injection.corrupted == "2026-12-09"


@pytest.mark.parametrize(
    ("fault", "reply", "corrupted"),
    [
        (
            NarrationFault.TRANSPOSED_DIGITS,
            "El 10 de diciembre de 2026 debes USD 45,00.",
            "El 10 de diciembre de 2026 debes USD 54,00.",
        ),
        (
            NarrationFault.TRANSPOSED_DIGITS,
            "Tienes 1111 puntos y debes USD 45,00.",
            "Tienes 1111 puntos y debes USD 54,00.",
        ),
        (
            NarrationFault.NEIGHBOURING_INVOICE,
            "Factura INV-2026-004280.",
            "Factura INV-2026-004279.",
        ),
        (
            NarrationFault.NEIGHBOURING_INVOICE,
            "INV-2026-004282 o INV-2026-004290.",
            "INV-2026-004282 o INV-2026-004291.",
        ),
        (
            NarrationFault.CHANGED_DATE,
            "Del 05/11/2026, vence el 2026-12-10.",
            "Del 05/11/2026, vence el 2026-12-11.",
        ),
        (
            NarrationFault.CHANGED_DATE,
            "El 2026-12-07 o el 2026-12-20.",
            "El 2026-12-07 o el 2026-12-21.",
        ),
    ],
)
def test_tokens_that_cannot_be_corrupted_for_real_are_passed_over(
    fault: NarrationFault, reply: str, corrupted: str
) -> None:
    request = NarrationRequest(
        "?",
        Language.SPANISH,
        Intent.BALANCE,
        None,
        (
            ToolResult(
                "balance",
                True,
                "INV-2026-004281 INV-2026-004283; 2026-12-05 2026-12-06 2026-12-08 2026-12-09",
                {},
            ),
        ),
        (),
    )
    assert corrupt(Narration(reply, ()), fault, request)[0].reply == corrupted


TWO_INVOICES = (
    "Invoice INV-2026-004281 of account 1000004821: due 2026-12-15; total USD 45.00. "
    "Invoice INV-2026-004100 of account 1000004821: due 2026-11-20; total USD 32.48."
)
LISTED = (
    "• INV-2026-004281: vence el 15 de diciembre de 2026, total USD 45,00\n"
    "• INV-2026-004100: vence el 20 de noviembre de 2026, total USD 32,48"
)


def _request(evidence: str, language: Language = Language.SPANISH) -> NarrationRequest:
    return NarrationRequest(
        "?", language, Intent.INVOICES, None, (ToolResult("invoices", True, evidence, {}),), ()
    )


@pytest.mark.parametrize(
    ("fault", "reply", "language", "corrupted"),
    [
        (NarrationFault.CURRENCY_SWAP, "Debes USD 45,00.", Language.SPANISH, "Debes Bs. 45,00."),
        (NarrationFault.CURRENCY_SWAP, "Debes Bs. -45,00.", Language.SPANISH, "Debes USD -45,00."),
        (
            NarrationFault.WRONG_VALUE_IN_WORDS,
            "Debes USD 45,00.",
            Language.SPANISH,
            "Debes cuarenta y seis dólares.",
        ),
        (
            NarrationFault.WRONG_VALUE_IN_WORDS,
            "You owe USD 32.48.",
            Language.ENGLISH,
            "You owe thirty-three dollars.",
        ),
        (
            NarrationFault.CROSS_RECORD_FIGURE,
            LISTED,
            Language.SPANISH,
            LISTED.replace("45,00", "32,48"),
        ),
        (
            NarrationFault.CROSS_RECORD_DATE,
            LISTED,
            Language.SPANISH,
            LISTED.replace("15 de diciembre", "20 de noviembre"),
        ),
        (
            NarrationFault.WRONG_WEEKDAY,
            "Vence el 15 de diciembre de 2026.",
            Language.SPANISH,
            "Vence el miércoles 15 de diciembre de 2026.",
        ),
        (
            NarrationFault.WRONG_WEEKDAY,
            "Due 2026-12-15.",
            Language.ENGLISH,
            "Due Wednesday 2026-12-15.",
        ),
    ],
)
def test_each_new_fault_is_written_and_caught(
    fault: NarrationFault, reply: str, language: Language, corrupted: str
) -> None:
    # a bolívar figure needs bolívar evidence: the reply's own figure is then grounded
    evidence = TWO_INVOICES.replace("USD 45.00", "VES -45.00") if "Bs." in reply else TWO_INVOICES
    assert verify(reply, evidence).grounded
    narration, injection = corrupt(Narration(reply, ()), fault, _request(evidence, language))
    assert narration.reply == corrupted and injection.applied
    assert not verify(narration.reply, evidence).grounded


@pytest.mark.parametrize(
    ("fault", "reply", "evidence"),
    [
        # the same figure is evidence in the other currency too: no fault to inject
        (NarrationFault.CURRENCY_SWAP, "Debes USD 45,00.", "USD 45.00; VES 45.00"),
        (NarrationFault.CURRENCY_SWAP, "Debes 45,00 €.", "EUR 45.00"),
        # 46 is evidence, a negative figure has no spelling here, no currency word for EUR
        (NarrationFault.WRONG_VALUE_IN_WORDS, "Debes USD 45,00.", "USD 45.00; USD 46.00"),
        (NarrationFault.WRONG_VALUE_IN_WORDS, "Debes USD -45,00.", "USD -45.00"),
        (NarrationFault.WRONG_VALUE_IN_WORDS, "Debes EUR 45,00.", "EUR 45.00"),
        # both invoices total the same and fall due the same day
        (
            NarrationFault.CROSS_RECORD_FIGURE,
            LISTED.replace("32,48", "45,00"),
            TWO_INVOICES.replace("32.48", "45.00"),
        ),
        (
            NarrationFault.CROSS_RECORD_DATE,
            LISTED.replace("20 de noviembre", "15 de diciembre"),
            TWO_INVOICES.replace("2026-11-20", "2026-12-15"),
        ),
        # a weekday already written, or a date with no value
        (NarrationFault.WRONG_WEEKDAY, "Vence el martes 15 de diciembre.", "2026-12-15"),
    ],
)
def test_a_new_fault_that_would_not_change_the_meaning_is_not_injected(
    fault: NarrationFault, reply: str, evidence: str
) -> None:
    assert not corrupt(Narration(reply, ()), fault, _request(evidence))[1].applied


BALANCE = (
    "Balance of account 1000004821 as of 2026-11-10T13:00:00Z: amount due USD 32.48,"
    " overdue USD 0.00, credit USD 0.00, net balance USD 32.48; next due date 2026-11-20."
)


@pytest.mark.parametrize(
    ("reply", "corrupted"),
    [
        (
            "Debes USD 32,48 (vencido: USD 0,00; saldo a favor: USD 0,00).",
            "Debes USD 32,48 (vencido: USD 32,48; saldo a favor: USD 0,00).",
        ),
        (
            "You owe USD 32.48; your credit balance is USD 0.00.",
            "You owe USD 32.48; your credit balance is USD 32.48.",
        ),
    ],
)
def test_a_figure_said_of_the_wrong_field_is_written_and_caught(reply: str, corrupted: str) -> None:
    """The amount due said as the overdue amount or the credit: a figure of the evidence,
    in the wrong place — only the labelled-figure guard can tell."""
    assert verify(reply, BALANCE).grounded
    fault = NarrationFault.WRONG_FIELD_FIGURE
    narration, injection = corrupt(Narration(reply, ()), fault, _request(BALANCE))
    assert narration.reply == corrupted and injection.applied
    assert not verify(narration.reply, BALANCE).grounded


def test_the_credit_said_as_owed_is_written_and_caught() -> None:
    credit = (
        "Balance of account 1000004821 as of 2026-11-10T13:00:00Z: amount due USD 0.00,"
        " overdue USD 0.00, credit USD 7.52, net balance USD -7.52; no open invoice is due."
    )
    reply = "Debes USD 0,00 y tienes USD 7,52 a favor."
    assert verify(reply, credit).grounded
    fault = NarrationFault.WRONG_FIELD_FIGURE
    narration, injection = corrupt(Narration(reply, ()), fault, _request(credit))
    assert narration.reply == "Debes USD 7,52 y tienes USD 7,52 a favor." and injection.applied
    assert not verify(narration.reply, credit).grounded


def test_no_field_figure_is_swapped_when_every_figure_is_that_field() -> None:
    reply = "Debes USD 0,00 y tu saldo a favor es de USD 0,00."
    fault = NarrationFault.WRONG_FIELD_FIGURE
    assert not corrupt(Narration(reply, ()), fault, _request(BALANCE))[1].applied


INVOICE = (
    "Invoice INV-2026-004281 of account 1000004821: status open; period 2026-11-05 to"
    " 2026-12-04; issued 2026-11-05; due 2026-11-20; total USD 38.28; paid USD 0.00;"
    " amount due USD 38.28."
)


@pytest.mark.parametrize(
    ("reply", "corrupted"),
    [
        (
            "Tu factura vence el 20 de noviembre de 2026.",
            "Tu factura vence el 5 de noviembre de 2026.",
        ),
        (
            "Your invoice was issued on November 5, 2026.",
            "Your invoice was issued on November 20, 2026.",
        ),
    ],
)
def test_a_date_said_of_the_wrong_field_is_written_and_caught(reply: str, corrupted: str) -> None:
    """The issue date said as the due date, or the other way round: a date of the
    evidence in the wrong place — only the labelled-date guard can tell."""
    assert verify(reply, INVOICE).grounded
    fault = NarrationFault.WRONG_FIELD_DATE
    narration, injection = corrupt(Narration(reply, ()), fault, _request(INVOICE))
    assert narration.reply == corrupted and injection.applied
    assert not verify(narration.reply, INVOICE).grounded


def test_a_reply_with_nothing_to_corrupt_is_returned_unchanged() -> None:
    plain = Narration("Con gusto te ayudo.", ())
    for fault in set(NarrationFault) - {NarrationFault.INVENTED_CITATION}:
        narration, injection = corrupt(plain, fault, REQUEST)
        assert narration == plain
        assert not injection.applied


SCENARIOS = [
    (NarrationFault.MAGNITUDE, MARIA_PHONE, "¿Cuál es mi saldo?"),
    (NarrationFault.TRANSPOSED_DIGITS, MARIA_PHONE, "¿Cuál es mi saldo?"),
    (NarrationFault.TRANSPOSED_DIGITS, MARIA_PHONE, "factura INV-2026-004281"),
    (NarrationFault.INVENTED_CITATION, MARIA_PHONE, "¿Cuánto es el recargo por mora?"),
    (NarrationFault.NEIGHBOURING_INVOICE, MARIA_PHONE, "factura INV-2026-004281"),
    (NarrationFault.NEIGHBOURING_INVOICE, MARIA_PHONE, "mis facturas"),
    (NarrationFault.CHANGED_DATE, MARIA_PHONE, "What is my balance?"),
    (NarrationFault.CHANGED_DATE, MARIA_PHONE, "¿recibieron mi pago?"),
    (NarrationFault.DROPPED_MINUS, JOSE_PHONE, "¿cuánto debo?"),
    (NarrationFault.MAGNITUDE, MARIA_PHONE, "¿por qué mi factura es más alta?"),
    (NarrationFault.CURRENCY_SWAP, MARIA_PHONE, "¿Cuál es mi saldo?"),
    (NarrationFault.CURRENCY_SWAP, MARIA_PHONE, "factura INV-2026-004281"),
    (NarrationFault.WRONG_VALUE_IN_WORDS, MARIA_PHONE, "¿Cuál es mi saldo?"),
    (NarrationFault.WRONG_VALUE_IN_WORDS, MARIA_PHONE, "What is my balance?"),
    (NarrationFault.CROSS_RECORD_FIGURE, MARIA_PHONE, "mis facturas"),
    (NarrationFault.CROSS_RECORD_DATE, MARIA_PHONE, "mis facturas"),
    (NarrationFault.WRONG_WEEKDAY, MARIA_PHONE, "What is my balance?"),
    (NarrationFault.WRONG_WEEKDAY, MARIA_PHONE, "¿recibieron mi pago?"),
    (NarrationFault.WRONG_FIELD_FIGURE, MARIA_PHONE, "¿Cuál es mi saldo?"),
    (NarrationFault.WRONG_FIELD_FIGURE, MARIA_PHONE, "What is my balance?"),
    (NarrationFault.WRONG_FIELD_DATE, MARIA_PHONE, "factura INV-2026-004281"),
    (NarrationFault.WRONG_FIELD_DATE, MARIA_PHONE, "What is my balance?"),
    (NarrationFault.WRONG_PAYMENT_METHOD, MARIA_PHONE, "¿recibieron mi pago?"),
    (NarrationFault.WRONG_PAYMENT_METHOD, MARIA_PHONE, "did you get my payment?"),
]


@pytest.mark.parametrize(("fault", "phone", "message"), SCENARIOS)
def test_the_verifier_stops_every_injected_fault(
    make_pipeline: PipelineFactory,
    capabilities: FakeCapabilities,
    fault: NarrationFault,
    phone: str,
    message: str,
) -> None:
    capabilities.world["fibranet"]["1000007310"].balance.update(
        amount_due="37.50", net_balance="-212.50"
    )
    narrator = FaultyNarrator(TemplateNarrator(), fault)
    result = make_pipeline(narrator=narrator).handle(phone, message)
    assert narrator.last_injection is not None and narrator.last_injection.applied
    assert result.action is Action.ESCALATE
    assert result.reason is EscalationReason.UNGROUNDED_OUTPUT
    assert {r.stage: r.decision for r in result.trace}["grounding"] == "ungrounded"


def test_an_uncorrupted_reply_goes_out(make_pipeline: PipelineFactory) -> None:
    narrator = FaultyNarrator(TemplateNarrator(), NarrationFault.DROPPED_MINUS)
    result = make_pipeline(narrator=narrator).handle(MARIA_PHONE, "¿Cuál es mi saldo?")
    assert narrator.last_injection is not None and not narrator.last_injection.applied
    assert result.action is Action.REPLY
