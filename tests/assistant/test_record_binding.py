"""Figures are bound to what they are said of: one invoice's figure is not another's."""

from __future__ import annotations

import pytest

from billing_toolkit.assistant.guards.record_binding import Binder, evidence_records, sentences
from billing_toolkit.assistant.text.identifiers import IdentifierKind
from tests.assistant.grounding_helpers import verify

A, B = "INV-2026-004281", "INV-2026-004100"
INVOICES = (
    "The 2 most recent invoices of account 1000004821 (newest first; that is all of them): "
    f"Invoice {A} of account 1000004821: status open; period 2026-11-05 to 2026-12-04; "
    "issued 2026-12-05; due 2026-12-15; total USD 45.00; paid USD 0.00; amount due USD 45.00. "
    f"Invoice {B} of account 1000004821: status paid; period 2026-10-05 to 2026-11-04; "
    "issued 2026-11-05; due 2026-11-20; total USD 32.48; paid USD 32.48; amount due USD 0.00."
)
PAYMENT = (
    "Last payment of account 1000004821: PAY-0000012345 of USD 32.48 by transfer, received "
    f"2026-11-18T14:00:00Z; applied USD 32.48 to {B}; unapplied (kept as credit) USD 0.00."
)
PLAN = (
    'Account 1000004821 is on plan PLN-FIBRA-100 "Fibra 100" (100/20 Mbps, USD 28.00 per '
    "month) since 2025-01-10; subscription status active; billing day 5; next billing date "
    '2026-12-05. Scheduled plan change to PLN-FIBRA-300 "Fibra 300" (300/50 Mbps, USD 40.00 '
    "per month) on 2027-01-05."
)


@pytest.mark.parametrize(
    ("answer", "token"),
    [
        (f"La factura {A} es de USD 32,48.", "32,48"),  # the case: B's total next to A
        (f"La factura {A} vence el 20 de noviembre de 2026.", "20 de noviembre de 2026"),
        (f"Invoice {B} is due December 15, 2026.", "December 15, 2026"),
        (f"{A}: total USD 45,00; por pagar USD 32,48.", "32,48"),  # clause without a subject
        (f"USD 32,48 es el total de {A}.", "32,48"),  # the sentence's subject comes after
        (f"Las facturas {A} y {B} son de USD 45,00.", "45,00"),  # said of both: B's is 32.48
        ("Tu plan PLN-FIBRA-100 cuesta USD 40,00 al mes.", "40,00"),  # the scheduled plan's
        ("El pago PAY-0000012345 fue de USD 45,00.", "45,00"),
        ("La factura INV-2026-009999 es de USD 45,00.", "45,00"),  # a record the evidence lacks
    ],
)
def test_a_figure_of_another_record_is_rejected(answer: str, token: str) -> None:
    result = verify(answer, INVOICES, PAYMENT, PLAN)
    assert token in result.unsupported_tokens, result


@pytest.mark.parametrize(
    "answer",
    [
        f"La factura {A} es de USD 45,00 y vence el 15 de diciembre de 2026.",
        f"• {A}: vence el 15 de diciembre de 2026, total USD 45,00\n• {B}: total USD 32,48",
        f"{A} vence el 15 de diciembre de 2026; {B} venció el 20 de noviembre de 2026.",
        f"La {A} es de USD 45,00, y la {B}, de USD 32,48.",
        f"Tu cuenta 1000004821 tiene {A} por USD 45,00.",
        f"Las facturas {A} y {B} son de la cuenta 1000004821.",
        f"El pago PAY-0000012345 de USD 32,48 se aplicó a {B}.",
        "Tu plan PLN-FIBRA-100 cuesta USD 28,00; el PLN-FIBRA-300 cuesta USD 40,00.",
        "Debes USD 45,00 en total.",  # no named subject: any record
        f"La factura {A} es la más reciente. Vence el 20 de noviembre de 2026.",  # new sentence
    ],
)
def test_a_figure_of_its_own_record_is_grounded(answer: str) -> None:
    result = verify(answer, INVOICES, PAYMENT, PLAN)
    assert result.grounded, result.unsupported


def test_a_sentence_naming_no_record_continues_the_one_before() -> None:
    records = evidence_records([f"Invoice {A}: total USD 45.00. Line items: tax USD 4.48."])
    assert records[(IdentifierKind.INVOICE, A)] == [
        f"Invoice {A}: total USD 45.00.",
        " Line items: tax USD 4.48.",
    ]


def test_a_period_before_a_digit_or_a_lower_case_word_ends_no_sentence() -> None:
    assert sentences("Bs. 45,00 el 15 de dic. de 2026. Listo") == [
        "Bs. 45,00 el 15 de dic. de 2026.",
        " Listo",
    ]


def test_the_digits_of_an_identifier_are_said_of_nothing() -> None:
    binder = Binder.of(f"Factura {A} de USD 45,00, a nombre de V-12345678")
    assert binder.keys_at(len("Factura INV-")) == ()
    assert binder.keys_at(len(f"Factura {A} de USD 45,00, a nombre de V-")) == ()
    assert binder.keys_at(len(f"Factura {A} de USD ")) == ((IdentifierKind.INVOICE, A),)


def test_each_aside_of_a_comparison_is_its_own_invoices_record() -> None:
    comparison = (
        f"Comparing invoice {A} (issued 2026-12-05, total USD 45.50) with the previous "
        f"invoice {B} (issued 2026-11-05, total USD 32.48) of account 1000004821: the "
        "total increased by USD 13.02 (computed)."
    )
    records = evidence_records([comparison])
    mine = " ".join(records[(IdentifierKind.INVOICE, A)])
    theirs = " ".join(records[(IdentifierKind.INVOICE, B)])
    assert "45.50" in mine and "32.48" not in mine and "13.02" in mine
    assert "32.48" in theirs and "45.50" not in theirs and "13.02" in theirs
    assert "45.50" in " ".join(records[(IdentifierKind.ACCOUNT, "1000004821")])


def test_an_amount_said_towards_an_identifier_is_that_ones() -> None:
    answer = f"Se aplicaron USD 45,50 a la {A} y USD 32,48 a la {B}."
    binder = Binder.of(answer)
    assert binder.keys_at(answer.index("32,48")) == ((IdentifierKind.INVOICE, B),)
