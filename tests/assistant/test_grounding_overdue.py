"""A figure said to be overdue is backed only by an overdue figure of the evidence
(`guards/labelled_figures.py`): the amount due said as overdue is a wrong figure."""

from __future__ import annotations

from decimal import Decimal

import pytest

from billing_toolkit.assistant.guards.labelled_figures import OVERDUE, labelled_figures
from tests.assistant.grounding_helpers import verify
from tests.assistant.test_grounding_owed import PAID_INVOICE
from tests.assistant.test_grounding_paid import PARTLY_PAID as PARTLY_PAID_INVOICE

NOTHING_LATE = (
    "Balance of account 1000004821 as of 2026-11-10T13:00:00Z: amount due USD 32.48,"
    " overdue USD 0.00, credit USD 0.00, net balance USD 32.48; next due date 2026-11-20."
)
SOME_LATE = (
    "Balance of account 1000004821 as of 2026-11-10T13:00:00Z: amount due USD 45.50,"
    " overdue USD 13.02, credit USD 0.00, net balance USD 45.50; next due date 2026-11-20."
)


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Tu monto vencido es USD 32,48.", NOTHING_LATE),
        ("Tienes USD 32,48 vencidos.", NOTHING_LATE),
        ("Your overdue amount is USD 32.48.", NOTHING_LATE),
        ("You have USD 32.48 past due.", NOTHING_LATE),
        ("Debes USD 45,50 y tu saldo vencido es de USD 45,50.", SOME_LATE),
        ("Your balance is USD 45.50, and USD 32.48 is overdue.", SOME_LATE),
        ("Tu deuda atrasada: Bs. 13,20", SOME_LATE),  # another figure, also not overdue
        ("Your past-due amount is USD 32.48.", NOTHING_LATE),
        ("El monto vencido de tu factura de octubre es USD 32,48.", NOTHING_LATE),
        # an invoice that is paid or open is not overdue: nothing of it is
        ("La factura INV-2026-000123 tiene USD 32,48 vencidos.", PAID_INVOICE),
        ("Tienes USD 25,10 vencidos en la factura INV-2026-000130.", PARTLY_PAID_INVOICE),
    ],
)
def test_the_amount_due_said_as_overdue_is_stopped(reply: str, evidence: str) -> None:
    assert not verify(reply, evidence).grounded


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Debes USD 32,48; no tienes nada vencido.", NOTHING_LATE),
        ("Tu saldo es USD 32,48 y vence el 20 de noviembre de 2026.", NOTHING_LATE),
        ("You owe USD 32.48, of which USD 0.00 is overdue.", NOTHING_LATE),
        ("Debes USD 45,50, de los cuales USD 13,02 están vencidos.", SOME_LATE),
        ("Your overdue amount is USD 13.02 of a balance of USD 45.50.", SOME_LATE),
        ("USD 32,48, que aún no está vencido.", NOTHING_LATE),
        ("Tienes USD 13,02 vencidos de un total de USD 45,50.", SOME_LATE),
        ("Si no pagas antes del 20 de noviembre, tendrás USD 32,48 vencidos.", NOTHING_LATE),
        ("If you don't pay by November 20, you'll have USD 32.48 past due.", NOTHING_LATE),
        (
            (
                "Para evitar recargos por pago atrasado te recomiendo pagar los USD 32,48 antes"
                " del 20 de noviembre."
            ),
            NOTHING_LATE,
        ),
        ("La factura INV-2026-000130 está abierta: debes USD 25,10.", PARTLY_PAID_INVOICE),
    ],
)
def test_a_true_overdue_figure_or_none_called_overdue_passes(reply: str, evidence: str) -> None:
    result = verify(reply, evidence)
    assert result.grounded, result.unsupported_tokens


def test_an_overdue_invoice_backs_what_it_still_owes() -> None:
    invoice = (
        "Invoice INV-2026-000123 of account 1000004821: status overdue; period 2026-10-01 to"
        " 2026-10-31; issued 2026-10-01; due 2026-10-15; total USD 32.48, paid USD 0.00,"
        " amount due USD 32.48."
    )
    assert labelled_figures(OVERDUE, [invoice]) == {Decimal("32.48")}
    assert verify("La factura INV-2026-000123 tiene USD 32,48 vencidos.", invoice).grounded
