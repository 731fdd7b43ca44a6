"""What a plan is said to cost is stopped when the evidence gives that figure only as what
was billed, owed, paid or credited (`guards/labelled_figures.py`, `PLAN_PRICE`): an
invoice's total, tax included, said as the plan's monthly price is the wrong field's
figure, not a wrong number."""

from __future__ import annotations

import pytest

from tests.assistant.grounding_helpers import verify
from tests.assistant.test_grounding_dates_labelled import INVOICE, PAYMENT, PLAN

PLANS_TABLE = "| PLN-FIBRA-300 | Fibra 300 | 300/100 Mbps | USD 40,00 al mes |"
"""A row of the knowledge base's plans table, as a chunk gives it."""


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Tu plan Fibra 100 cuesta USD 32,48 al mes.", (PLAN, INVOICE)),
        ("Your plan costs USD 32.48 a month.", (PLAN, INVOICE)),
        ("El precio de tu plan es de USD 32,48.", (PLAN, INVOICE)),
        ("Estás en el plan Fibra 100 por USD 32,48 al mes.", (PLAN, PAYMENT)),
        ("Your Fibra 100 plan is priced at USD 32.48.", (PLAN, INVOICE)),
    ],
)
def test_what_was_billed_said_as_the_plans_price_is_stopped(
    reply: str, evidence: tuple[str, ...]
) -> None:
    assert not verify(reply, *evidence).grounded


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Tu plan Fibra 100 cuesta USD 28,00 al mes.", (PLAN, INVOICE)),
        (
            (
                "Tu plan actual es Fibra 100 (PLN-FIBRA-100): 100 Mbps de bajada y 50 Mbps de"
                " subida por USD 28,00 al mes."
            ),
            (PLAN, INVOICE),
        ),
        ("Your plan costs USD 28.00 a month; with tax your invoice is USD 32.48.", (PLAN, INVOICE)),
        ("El plan Fibra 300 cuesta USD 40,00 al mes.", (PLAN, PLANS_TABLE)),
        ("Tu plan cuesta USD 28,00 más IVA; tu factura es de USD 32,48.", (PLAN, INVOICE)),
    ],
)
def test_a_plans_price_said_as_what_it_is_passes(reply: str, evidence: tuple[str, ...]) -> None:
    result = verify(reply, *evidence)
    assert result.grounded, result.unsupported_tokens
