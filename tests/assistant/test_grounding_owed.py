"""A figure said to be owed ("debes", "total a pagar", "you owe") is stopped when the
evidence gives it only as money on the subscriber's side — a credit, a payment, what an
invoice already had paid (`guards/labelled_figures.py`): telling a subscriber with USD 7.52
in credit that they owe USD 7.52 is the wrong field's figure, not a wrong number."""

from __future__ import annotations

from decimal import Decimal

import pytest

from billing_toolkit.assistant.guards.labelled_figures import OWED, wrong_for
from tests.assistant.grounding_helpers import verify
from tests.assistant.test_grounding_paid import PARTLY_PAID

SOME_CREDIT = (
    "Balance of account 1000004821 as of 2026-11-10T13:00:00Z: amount due USD 0.00;"
    " overdue USD 0.00; credit USD 7.52; net balance USD -7.52; no open invoice is due."
)
NO_CREDIT = (
    "Balance of account 1000004821 as of 2026-11-10T13:00:00Z: amount due USD 32.48;"
    " overdue USD 0.00; credit USD 0.00; net balance USD 32.48; next due date 2026-11-20."
)
PAYMENT = (
    "Last payment of account 1000004821: PAY-0000000042 of USD 40.00 by transfer"
    " (reference 0012345), received 2026-11-05T10:00:00Z; applied USD 32.48 to"
    " INV-2026-000123; unapplied (kept as credit) USD 7.52."
)
MIXED = (
    "Balance of account 1000004821 as of 2026-11-10T13:00:00Z: amount due USD 45.10;"
    " overdue USD 0.00; credit USD 7.52; net balance USD 37.58; next due date 2026-11-20."
)
PAYMENT_ALL_APPLIED = (
    "Last payment of account 1000004821: PAY-0000000041 of USD 32.48 by transfer"
    " (reference 0012344), received 2026-10-05T10:00:00Z; applied USD 32.48 to"
    " INV-2026-000122; unapplied (kept as credit) USD 0.00."
)
REPORT = (
    "Payment report PRP-0000000007 for account 1000004821: transfer VES 1234.56, reference"
    " 98765432, bank 0102, paid 2026-11-04, reported 2026-11-04T15:00:00Z; status"
    " pending_verification."
)
PAID_INVOICE = (
    "Invoice INV-2026-000123 of account 1000004821: status paid; period 2026-10-01 to"
    " 2026-10-31; issued 2026-10-01; due 2026-10-15; total USD 32.48; paid USD 32.48;"
    " amount due USD 0.00."
)
PLAN = (
    'Account 1000004821 is on plan PLN-FIBRA-100 "Fibra 100" (100/50 Mbps, USD 30.00 per'
    " month) since 2026-01-01; subscription status active; billing day 1; next billing date"
    " 2026-12-01. No plan change is scheduled."
)


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Debes USD 7,52.", (SOME_CREDIT,)),
        ("Aún debes USD 7,52 de tu última factura.", (SOME_CREDIT,)),
        ("Todavía adeudas USD 7,52.", (SOME_CREDIT,)),
        ("El total a pagar es de USD 7,52.", (SOME_CREDIT,)),
        ("Monto a pagar: USD 7,52", (SOME_CREDIT,)),
        ("Tienes que pagar USD 7,52 este mes.", (SOME_CREDIT,)),
        ("USD 7,52 es lo que debes.", (SOME_CREDIT,)),
        ("Te quedan USD 7,52 pendientes de pago.", (SOME_CREDIT,)),
        ("Quedan por pagar USD 7,52.", (SOME_CREDIT,)),
        ("You owe USD 7.52.", (SOME_CREDIT,)),
        ("You still owe us USD 7.52.", (SOME_CREDIT,)),
        ("USD 7.52 is what you owe.", (SOME_CREDIT,)),
        ("Debes USD 40,00.", (SOME_CREDIT, PAYMENT)),  # the payment itself said as a debt
        ("Your balance: you owe USD 7.52 and nothing is overdue.", (SOME_CREDIT, PAYMENT)),
        ("Te falta pagar USD 7,52.", (SOME_CREDIT,)),
        ("Tu deuda es de USD 7,52.", (SOME_CREDIT,)),
        ("Debes cancelar USD 7,52 antes del cierre.", (SOME_CREDIT,)),  # "cancelar": to pay
        ("Monto a cancelar: USD 7,52", (SOME_CREDIT,)),
        ("USD 7,52 por pagar.", (SOME_CREDIT,)),
        ("Your amount due is USD 7.52.", (SOME_CREDIT,)),
        ("Debes Bs. 1.234,56.", (SOME_CREDIT, REPORT)),  # what the report paid, as a debt
        # the debt's words after the amount, or a debt said another way
        ("Tienes USD 7,52 pendientes.", (SOME_CREDIT,)),
        ("Te quedan USD 7,52 sin pagar.", (SOME_CREDIT,)),
        ("Hay USD 7,52 adeudados en tu cuenta.", (SOME_CREDIT,)),
        ("El monto pendiente es de USD 7,52.", (SOME_CREDIT,)),
        ("You have USD 7.52 outstanding.", (SOME_CREDIT,)),
        ("USD 7.52 is still outstanding.", (SOME_CREDIT,)),
        ("USD 7.52 remains unpaid.", (SOME_CREDIT,)),
        ("Your outstanding amount is USD 7.52.", (SOME_CREDIT,)),
        ("USD 7.52 is due on November 20.", (SOME_CREDIT,)),
        ("Te queda una transferencia de USD 7,52 por pagar.", (SOME_CREDIT,)),
        ("Tienes un pago de USD 7,52 pendiente.", (SOME_CREDIT,)),
        ("Tu deuda pendiente es de USD 7,52.", (SOME_CREDIT,)),
        ("Tienes saldo a favor y USD 7,52 pendientes.", (MIXED,)),  # the credit, as a debt
        ("Debes devolvernos nada: debes USD 7,52.", (SOME_CREDIT,)),
        # the total of an invoice something was paid on, said as still owed
        ("Aún debes USD 45,10 de la factura INV-2026-000130.", (PARTLY_PAID,)),
        ("Tu factura INV-2026-000130 tiene un saldo pendiente de USD 45,10.", (PARTLY_PAID,)),
        ("The outstanding balance on INV-2026-000130 is USD 45.10.", (PARTLY_PAID,)),
        ("Todavía tienes USD 45,10 pendientes de la factura INV-2026-000130.", (PARTLY_PAID,)),
        ("Your amount due is USD 45.10.", (PARTLY_PAID,)),
        ("Aún debes USD 32,48 de la factura INV-2026-000123.", (PAID_INVOICE,)),
        # a debt said as a request to pay, or as "you owe" after the amount
        ("Please pay USD 7.52 to bring your account up to date.", (SOME_CREDIT,)),
        ("You'll need to pay USD 7.52 to settle your account.", (SOME_CREDIT,)),
        ("Necesitas pagar USD 7,52 antes del cierre.", (SOME_CREDIT,)),
        ("Tu deuda con nosotros es de USD 40,00.", (SOME_CREDIT, PAYMENT)),
        ("Do you want to pay the USD 7.52 you owe now?", (SOME_CREDIT,)),
        ("Tienes pendiente por pagar USD 7,52.", (SOME_CREDIT,)),
    ],
)
def test_money_on_the_subscribers_side_said_as_owed_is_stopped(
    reply: str, evidence: tuple[str, ...]
) -> None:
    assert not verify(reply, *evidence).grounded


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Debes USD 32,48 y no tienes saldo a favor.", (NO_CREDIT,)),
        ("No debes nada; tienes USD 7,52 a favor.", (SOME_CREDIT,)),
        ("Ya no debes nada y te quedan USD 7,52 a favor.", (SOME_CREDIT,)),
        ("Debes saber que tienes USD 7,52 a favor.", (SOME_CREDIT,)),  # "debes": you must
        ("Debes USD 0,00 y tienes USD 7,52 a favor.", (SOME_CREDIT,)),
        ("Gracias por pagar USD 40,00; quedaron USD 7,52 a favor.", (SOME_CREDIT, PAYMENT)),
        ("Del pago de USD 40,00, USD 32,48 fueron a tu factura.", (PAYMENT,)),
        ("You owe nothing, and USD 7.52 is your credit.", (SOME_CREDIT,)),
        ("Debes pagar USD 30,00 cada mes por tu plan.", (SOME_CREDIT, PLAN)),  # a price
        # the same figure elsewhere in the evidence as a charge: left to the figure check
        ("La factura INV-2026-000123 era de USD 32,48 a pagar.", (PAID_INVOICE,)),
        # an amount before a debt's verb is another phrase's object, not the debt
        ("Con tu crédito de USD 7,52 te toca pagar USD 37,58.", (MIXED,)),
        ("Restando tu crédito de USD 7,52 debes USD 37,58.", (MIXED,)),
        ("Tu crédito de USD 7,52 debes usarlo en la próxima factura.", (MIXED,)),
        ("After your payment of USD 40.00 you owe nothing.", (SOME_CREDIT, PAYMENT)),
        ("After applying USD 7.52 you owe USD 37.58.", (MIXED,)),
        # nothing owed is no credit said as a debt, even when 0.00 is only the credit
        ("Debes USD 0,00.", (PAYMENT_ALL_APPLIED,)),
        ("You owe USD 0.00; your last payment covered everything.", (PAYMENT_ALL_APPLIED,)),
        # a debt's words after the amount for what is owed, or for something else
        ("Tienes USD 32,48 pendientes.", (NO_CREDIT,)),
        ("USD 32.48 is due on November 20.", (NO_CREDIT,)),
        ("Tu reporte de Bs. 1.234,56 está pendiente de verificación.", (SOME_CREDIT, REPORT)),
        (
            "Tu reporte de Bs. 1.234,56 pendiente de verificación sigue en revisión.",
            (SOME_CREDIT, REPORT),
        ),
        ("Tu pago de USD 40,00 pendiente de aplicar ya se aplicó.", (SOME_CREDIT, PAYMENT)),
        ("Tienes USD 7,52 a favor pendientes de usar.", (SOME_CREDIT,)),
        ("A credit of USD 7.52 is due to your overpayment.", (SOME_CREDIT,)),
        ("Tienes USD 7,52 pendientes a tu favor.", (SOME_CREDIT,)),
        ("Tienes un crédito de USD 7,52 pendiente.", (SOME_CREDIT,)),
        ("You have USD 7.52 outstanding credit on your account.", (SOME_CREDIT,)),
        ("Hay un pago móvil de Bs. 1.234,56 pendiente en revisión.", (SOME_CREDIT, REPORT)),
        (
            "Tienes Bs. 1.234,56 pendientes hasta que verifiquemos tu reporte.",
            (SOME_CREDIT, REPORT),
        ),
        # money we give back is no debt of the subscriber's
        ("Te devolveremos los USD 7,52 pendientes.", (SOME_CREDIT,)),
        ("Te reembolsaremos los USD 7,52 pendientes.", (SOME_CREDIT,)),
        ("We will refund the USD 7.52 outstanding.", (SOME_CREDIT,)),
        # a credit and a debt joined by "y": the debt's amount is not the credit's
        ("Tienes USD 7,52 a favor y USD 45,10 pendientes.", (MIXED,)),
        ("You have USD 7.52 in credit and USD 45.10 outstanding.", (MIXED,)),
        # what is left of a partly paid invoice; an amount after a debt's verb with its own
        (
            "Aún debes USD 25,10 de la factura INV-2026-000130, de un total de USD 45,10.",
            (PARTLY_PAID,),
        ),
        ("Tu saldo a favor cubre parte de los USD 45,10 pendientes.", (MIXED,)),
        ("Your USD 7.52 credit brings your USD 45.10 balance down to USD 37.58.", (MIXED,)),
        ("Your credit is subtracted from the USD 45.10 you owe.", (MIXED,)),
    ],
)
def test_a_debt_or_a_credit_said_as_what_it_is_passes(
    reply: str, evidence: tuple[str, ...]
) -> None:
    result = verify(reply, *evidence)
    assert result.grounded, result.unsupported_tokens


def test_only_figures_given_solely_on_the_subscribers_side_are_wrong_as_a_debt() -> None:
    """The net balance of USD -7.52 (below zero) does not make USD 7.52 a debt; the applied
    USD 32.48 of the payment is a charge too, so it may be said as owed."""
    wrong = wrong_for(OWED, [SOME_CREDIT, PAYMENT])
    assert wrong is not None
    assert [wrong(Decimal(v)) for v in ("7.52", "40.00", "32.48", "0.00")] == [
        True,
        True,
        False,
        False,
    ]
    assert wrong_for(OWED, [NO_CREDIT]) is None  # its credit, 0.00, is also a charge of 0.00
