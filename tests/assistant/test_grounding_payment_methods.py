"""How a payment was made, said of a payment, is stopped when no payment or report of the
evidence was made that way (`guards/payment_methods.py`): "pagaste con Pago Móvil" of a
payment recorded by card states no figure, and is still wrong."""

from __future__ import annotations

import pytest

from tests.assistant.grounding_helpers import verify
from tests.assistant.test_grounding_dates_labelled import INVOICE, PAYMENT

CASH_IN_BOLIVARES = (
    "Last payment of account 1038597440: PAY-0000012056 of VES 3000.00 by cash (reference"
    " 12345), received 2026-11-01T10:00:00Z; applied VES 2628.00 to INV-2026-008220;"
    " unapplied (kept as credit) VES 372.00."
)
TWO_PAYMENTS = (
    "Payments of account 1000004821, newest first: Payment PAY-0000011932 of USD 32.48 by"
    " card (reference 119536), received 2026-10-19T10:00:00Z; Payment PAY-0000011675 of USD"
    " 32.48 by cash, received 2026-09-20T10:00:00Z."
)
REPORT = (
    "Payment report PRP-0000000007 for account 1000004821: pago_movil VES 1234.56, reference"
    " 98765432, bank 0102, paid 2026-11-04, reported 2026-11-05T15:00:00Z; status"
    " pending_verification."
)


@pytest.mark.parametrize(
    ("reply", "evidence", "said"),
    [
        ("Pagaste con Pago Móvil.", (PAYMENT,), "pago movil"),
        ("Tu último pago fue por transferencia bancaria.", (PAYMENT,), "transferencia bancaria"),
        ("Ese pago lo hiciste en efectivo.", (PAYMENT,), None),  # not read: no "con/por"
        (
            "Tu pago PAY-0000011932, del 19 de octubre de 2026, por USD 32,48 (efectivo).",
            (PAYMENT,),
            "efectivo",
        ),
        ("You paid by bank transfer.", (PAYMENT,), "bank transfer"),
        ("Your last payment was made with Zelle.", (PAYMENT,), "zelle"),
        ("Tu pago fue por transferencia.", (REPORT,), "transferencia"),
        ("Pagaste con tarjeta.", (REPORT,), "tarjeta"),
        (
            "Your last payment is PAY-0000011932, on October 19, 2026, for USD 32.48 (cash).",
            (PAYMENT,),
            "cash",
        ),
        (
            "Tu último pago es PAY-0000012056, por Bs. 3.000,00 (tarjeta en punto de venta).",
            (CASH_IN_BOLIVARES,),
            "tarjeta en punto de venta",
        ),
        # each payment by its id: the other payment's method is not this one's
        ("PAY-0000011932, del 19 de octubre de 2026 (efectivo).", (TWO_PAYMENTS,), "efectivo"),
    ],
)
def test_a_method_the_evidence_does_not_give_is_stopped(
    reply: str, evidence: tuple[str, ...], said: str | None
) -> None:
    result = verify(reply, *evidence)
    if said is None:
        assert result.grounded
    else:
        assert not result.grounded and said in result.unsupported_tokens


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Pagaste con tarjeta.", (PAYMENT,)),
        ("Tu pago fue con tarjeta en punto de venta.", (PAYMENT,)),
        (
            (
                "Tu pago PAY-0000011932, del 19 de octubre de 2026, por USD 32,48 (tarjeta en"
                " punto de venta)."
            ),
            (PAYMENT,),
        ),
        ("Your last payment was made with a card.", (PAYMENT,)),
        ("PAY-0000011932 for USD 32.48 (card at a point of sale).", (PAYMENT,)),
        ("Tu último pago es PAY-0000012056, por Bs. 3.000,00 (efectivo).", (CASH_IN_BOLIVARES,)),
        (
            "PAY-0000011932 (tarjeta en punto de venta) y PAY-0000011675 (efectivo).",
            (TWO_PAYMENTS,),
        ),
        ("Tu pago fue por Pago Móvil, según tu reporte.", (REPORT,)),
        ("Pagaste con tarjeta y reportaste un Pago Móvil.", (PAYMENT, REPORT)),
        # how one can pay is the policy's, not a payment's
        ("Puedes pagar por Pago Móvil o transferencia.", (PAYMENT,)),
        ("Tu pago por USD 32,48 se aplicó a tu factura.", (PAYMENT,)),
        # no method in the evidence: nothing to hold the words to
        ("Pagaste con Zelle.", (INVOICE,)),
    ],
)
def test_a_method_the_evidence_gives_passes(reply: str, evidence: tuple[str, ...]) -> None:
    result = verify(reply, *evidence)
    assert result.grounded, result.unsupported_tokens
