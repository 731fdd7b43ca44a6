"""A figure said to be the net balance ("saldo neto") is backed only by the evidence's net
balance (`guards/labelled_figures.py`), whichever way its sign is said."""

from __future__ import annotations

import pytest

from tests.assistant.grounding_helpers import verify

PARTLY_PAID = (
    "Balance of account 1000004821 as of 2026-11-10T13:00:00Z: amount due USD 32.48,"
    " overdue USD 0.00, credit USD 7.52, net balance USD 24.96; next due date 2026-11-20."
)
IN_CREDIT = (
    "Balance of account 1000004821 as of 2026-11-10T13:00:00Z: amount due USD 0.00,"
    " overdue USD 0.00, credit USD 7.52, net balance USD -7.52; no open invoice is due."
)


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Tu saldo neto es de USD 32,48.", PARTLY_PAID),  # the amount due
        ("Your net balance is USD 32.48.", PARTLY_PAID),
        ("Tienes USD 7,52 de saldo neto.", PARTLY_PAID),  # the credit
        ("Saldo neto: USD 0,00.", IN_CREDIT),
        ("El saldo neto de tu cuenta es de USD 32,48.", PARTLY_PAID),  # the amount due
    ],
)
def test_another_figure_said_as_the_net_balance_is_stopped(reply: str, evidence: str) -> None:
    assert not verify(reply, evidence).grounded


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Debes USD 32,48; con tu saldo a favor, tu saldo neto es de USD 24,96.", PARTLY_PAID),
        ("Your net balance is USD 24.96.", PARTLY_PAID),
        ("Tu saldo neto es de USD -7,52: tienes USD 7,52 a favor.", IN_CREDIT),
        ("Tu saldo neto, después de tu pago de USD 7,52, es de USD 24,96.", PARTLY_PAID),
    ],
)
def test_the_net_balance_said_as_such_passes(reply: str, evidence: str) -> None:
    result = verify(reply, evidence)
    assert result.grounded, result.unsupported_tokens
