"""A figure said to be a credit ("saldo a favor") is backed only by a credit figure of the
evidence (`guards/labelled_figures.py`): the amount due said as credit is a wrong figure —
it tells a subscriber who owes money that they have money to spend."""

from __future__ import annotations

from decimal import Decimal

import pytest

from billing_toolkit.assistant.guards.labelled_figures import CREDIT, labelled_figures
from tests.assistant.grounding_helpers import verify

NO_CREDIT = (
    "Balance of account 1000004821 as of 2026-11-10T13:00:00Z: amount due USD 32.48,"
    " overdue USD 0.00, credit USD 0.00, net balance USD 32.48; next due date 2026-11-20."
)
SOME_CREDIT = (
    "Balance of account 1000004821 as of 2026-11-10T13:00:00Z: amount due USD 0.00,"
    " overdue USD 0.00, credit USD 7.52, net balance USD -7.52; no open invoice is due."
)
PAYMENT = (  # `client.evidence.payment_evidence`
    "Last payment of account 1000004821: PAY-0000000042 of USD 40.00 by transfer"
    " (reference 0012345), received 2026-11-05T10:00:00Z; applied USD 32.48 to"
    " INV-2026-000123; unapplied (kept as credit) USD 7.52."
)


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Tienes un saldo a favor de USD 32,48.", NO_CREDIT),
        ("Tienes USD 32,48 a favor.", NO_CREDIT),
        ("Saldo a favor: USD 32,48", NO_CREDIT),
        ("Your credit balance is USD 32.48.", NO_CREDIT),
        ("You have USD 32.48 in credit.", NO_CREDIT),
        ("Cuentas con un crédito de USD 32,48.", NO_CREDIT),
        ("Te quedan USD 7,52 a favor y un crédito de USD 40,00.", SOME_CREDIT),
        ("Del pago quedaron USD 32,48 como saldo a favor.", PAYMENT),  # the applied part
        ("You have USD 40.00 of credit left from your payment.", PAYMENT),  # the whole payment
        ("Tienes USD 32,48 disponibles a tu favor.", NO_CREDIT),
        ("Tu saldo a favor en la cuenta 1000004821 es de USD 32,48.", NO_CREDIT),
    ],
)
def test_another_figure_said_as_credit_is_stopped(reply: str, evidence: str) -> None:
    assert not verify(reply, evidence).grounded


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Debes USD 32,48 y no tienes saldo a favor.", NO_CREDIT),
        ("Tu saldo a favor es de USD 0,00; debes USD 32,48.", NO_CREDIT),
        ("Tienes un saldo a favor de USD 7,52 y no debes nada.", SOME_CREDIT),
        ("You have USD 7.52 in credit.", SOME_CREDIT),
        ("Your credit balance is USD 7.52.", SOME_CREDIT),
        ("Del pago de USD 40,00 quedaron USD 7,52 como saldo a favor.", PAYMENT),
        ("Pagaste USD 32,48 con tarjeta de crédito.", NO_CREDIT),  # a card, not a credit
        ("Your credit card payment of USD 32.48 was received.", NO_CREDIT),
        ("Debes USD 32,48, sin saldo a favor.", NO_CREDIT),
    ],
)
def test_a_true_credit_figure_or_none_said_as_credit_passes(reply: str, evidence: str) -> None:
    result = verify(reply, evidence)
    assert result.grounded, result.unsupported_tokens


def test_every_kind_of_credit_in_the_evidence_backs_a_credit() -> None:
    report = (
        "Payment report PRP-0000000007 of account 1000004821: verified. It became payment"
        " PAY-0000000043, credited USD 20.00 to the account."
    )
    assert labelled_figures(CREDIT, [SOME_CREDIT, PAYMENT, report]) == {
        Decimal("7.52"),
        Decimal("20.00"),
    }
    assert verify("Se registró un crédito de USD 20,00 por tu reporte.", report).grounded


def test_with_no_credit_figure_in_the_evidence_the_words_are_left_to_the_figure_check() -> None:
    invoice = (
        "Invoice INV-2026-000123 of account 1000004821: status open; period 2026-10-01 to"
        " 2026-10-31; issued 2026-10-01; due 2026-10-15; total USD 32.48, paid USD 0.00,"
        " amount due USD 32.48."
    )
    assert verify("La factura INV-2026-000123 es de USD 32,48, a tu favor si pagas hoy.", invoice)
    assert not verify("Tienes USD 99,00 a favor.", invoice).grounded  # the figure check's
