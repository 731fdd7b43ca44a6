"""What a bill is said to come to ("tu factura de este mes es de USD 7,52", "your November
bill is USD 7.52"), and what paying would settle ("si pagas USD 7,52 quedarás al día"), are
stopped when the evidence gives that figure only as money on the subscriber's side — a
credit, a payment, a report (`guards/labelled_figures.py`): the credit said as the bill is
the wrong field's figure, not a wrong number."""

from __future__ import annotations

import pytest

from tests.assistant.grounding_helpers import verify
from tests.assistant.test_grounding_owed import (
    MIXED,
    NO_CREDIT,
    PAID_INVOICE,
    PAYMENT,
    REPORT,
    SOME_CREDIT,
)
from tests.assistant.test_grounding_paid import PARTLY_PAID


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Tu factura de este mes es de USD 7,52.", (SOME_CREDIT,)),
        ("Tu factura de noviembre es de USD 7,52.", (SOME_CREDIT,)),
        ("Tu factura es de USD 7,52.", (SOME_CREDIT,)),
        ("La factura INV-2026-000123 fue de USD 40,00.", (PAID_INVOICE, PAYMENT)),
        ("Tu recibo salió en USD 7,52.", (SOME_CREDIT,)),
        ("Tu factura viene por un total de USD 7,52.", (SOME_CREDIT,)),
        ("Your bill this month is USD 7.52.", (SOME_CREDIT,)),
        ("Your November invoice comes to USD 7.52.", (SOME_CREDIT,)),
        ("The invoice total is USD 7.52.", (SOME_CREDIT,)),
        ("Tu factura es de Bs. 1.234,56.", (SOME_CREDIT, REPORT)),
        # what paying would settle: a debt by another name
        ("Si pagas USD 7,52 quedarás al día.", (SOME_CREDIT,)),
        ("Con USD 7,52 quedas al día con tu cuenta.", (MIXED,)),
        ("Paga USD 7,52 para ponerte al día.", (MIXED,)),
        ("If you pay USD 7.52 you'll be up to date.", (SOME_CREDIT,)),
        ("Pay USD 7.52 to bring your account up to date.", (MIXED,)),
    ],
)
def test_money_on_the_subscribers_side_said_as_the_bill_is_stopped(
    reply: str, evidence: tuple[str, ...]
) -> None:
    assert not verify(reply, *evidence).grounded


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Tu factura de este mes es de USD 32,48.", (NO_CREDIT,)),
        ("La factura INV-2026-000123 fue de USD 32,48 y ya está pagada.", (PAID_INVOICE,)),
        ("Tu factura INV-2026-000130 es de USD 45,10.", (PARTLY_PAID,)),
        ("Your invoice is USD 32.48 and you have no credit.", (NO_CREDIT,)),
        # the credit beside the bill, said as what it is
        ("Tu factura es de USD 45,10 y tienes USD 7,52 a favor.", (MIXED,)),
        ("Tu saldo a favor de USD 7,52 se aplicará a tu próxima factura.", (SOME_CREDIT,)),
        ("Tu factura quedó en USD 0,00 gracias a tu crédito.", (SOME_CREDIT,)),
        ("Tu factura fue pagada con tu pago de USD 40,00.", (PAID_INVOICE, PAYMENT)),
        ("Your invoice was covered by your payment of USD 40.00.", (PAID_INVOICE, PAYMENT)),
        ("Tu factura de USD 32,48 se pagó; te quedaron USD 7,52 a favor.", (PAYMENT, NO_CREDIT)),
        # what paying settles, said of what is owed
        ("Si pagas USD 45,10 quedarás al día.", (MIXED,)),
        ("If you pay USD 32.48 you'll be up to date.", (NO_CREDIT,)),
        ("Tienes USD 7,52 a favor, así que ya estás al día.", (SOME_CREDIT,)),
    ],
)
def test_a_bill_or_a_credit_said_as_what_it_is_passes(
    reply: str, evidence: tuple[str, ...]
) -> None:
    result = verify(reply, *evidence)
    assert result.grounded, result.unsupported_tokens
