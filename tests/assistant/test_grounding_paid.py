"""A figure said to have been paid ("pagaste", "recibimos", "your last payment") is backed
only by money that went from the subscriber in the evidence (`guards/labelled_figures.py`):
the credit a payment left, or the amount still due, said as the payment is a wrong figure."""

from __future__ import annotations

import pytest

from tests.assistant.grounding_helpers import verify

PAYMENT = (
    "Last payment of account 1000004821: PAY-0000000042 of USD 40.00 by transfer"
    " (reference 0012345), received 2026-11-05T10:00:00Z; applied USD 32.48 to"
    " INV-2026-000123; unapplied (kept as credit) USD 7.52."
)
BALANCE = (
    "Balance of account 1000004821 as of 2026-11-10T13:00:00Z: amount due USD 45.10;"
    " overdue USD 0.00; credit USD 7.52; net balance USD 37.58; next due date 2026-11-20."
)
PARTLY_PAID = (
    "Invoice INV-2026-000130 of account 1000004821: status open; period 2026-10-01 to"
    " 2026-10-31; issued 2026-10-01; due 2026-11-15; total USD 45.10; paid USD 20.00;"
    " amount due USD 25.10."
)
RATE = (
    "Official exchange rate for 2026-11-05: VES 61.7280 per USD 1.00 (in es-VE notation"
    " 61,7280 per dollar; source BCV, published for 2026-11-05, published"
    " 2026-11-05T08:00:00Z). USD 20.00 at the rate of 2026-11-05 is VES 1234.56 (USD ×"
    " 61.7280, rounded half-up to the cent)."
)
REPORT = (
    "Payment report PRP-0000000007 for account 1000004821: transfer VES 1234.56, reference"
    " 98765432, bank 0102, paid 2026-11-04, reported 2026-11-04T15:00:00Z; status verified."
    " It became payment PAY-0000000043, credited USD 20.00 to the account (the reported"
    " VES 1234.56 converted at the official rate of 2026-11-04, VES 61.7280 per USD 1.00,"
    " rounded half-up to the cent)."
)


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Pagaste USD 7,52.", (PAYMENT,)),  # what it left as credit
        ("Tu último pago fue de USD 7,52.", (PAYMENT,)),
        ("Recibimos USD 45,10 por transferencia el 5 de noviembre.", (PAYMENT, BALANCE)),
        ("We received USD 7.52 from you.", (PAYMENT,)),
        ("Your last payment was USD 45.10.", (PAYMENT, BALANCE)),  # the amount due
        ("You paid USD 7.52 by transfer.", (PAYMENT,)),
        ("USD 7,52 que pagaste ya están registrados.", (PAYMENT,)),
        ("Pagaste USD 45,10 por pago móvil.", (PAYMENT, REPORT, BALANCE)),  # what is due
        ("Cancelaste USD 7,52 el 5 de noviembre.", (PAYMENT,)),  # "cancelar": to pay
        ("Hiciste un pago de USD 7,52.", (PAYMENT,)),
        ("Último pago: USD 7,52", (PAYMENT,)),
        ("You've paid USD 7.52.", (PAYMENT,)),
        ("Sin embargo, tu último pago fue de USD 7,52.", (PAYMENT,)),  # no negation
        ("Recibimos el pago de USD 7,52.", (PAYMENT,)),
        # the payment's verb after the amount, or a receipt said another way
        ("Your payment of USD 7.52 was received.", (PAYMENT,)),
        ("Your payment of USD 45.10 has been received.", (PAYMENT, BALANCE)),
        ("Tu pago de USD 7,52 fue recibido el 5 de noviembre.", (PAYMENT,)),
        ("Tu pago de USD 7,52 ya fue registrado.", (PAYMENT,)),
        ("Tu transferencia de USD 45,10 se recibió.", (PAYMENT, BALANCE)),
        ("We got your payment of USD 7.52.", (PAYMENT,)),
        ("Nos llegó tu pago de USD 7,52.", (PAYMENT,)),
        ("Registramos tu pago de USD 7,52.", (PAYMENT,)),
        ("Se recibió tu pago de USD 7,52.", (PAYMENT,)),
        ("Confirmamos tu pago de USD 45,10.", (PAYMENT, BALANCE)),
        ("Tus USD 45,10 fueron recibidos.", (PAYMENT, BALANCE)),
        ("Tu pago de USD 45,10 quedó registrado.", (PAYMENT, BALANCE)),
        ("Pago de USD 7,52 recibido.", (PAYMENT,)),
        ("Nos llegaron USD 45,10 por pago móvil.", (PAYMENT, BALANCE)),
        ("Se registró un pago de USD 45,10.", (PAYMENT, BALANCE)),
        ("We've got your transfer of USD 45.10.", (PAYMENT, BALANCE)),
        ("Your payment of USD 45.10 was successfully received.", (PAYMENT, BALANCE)),
        ("Your USD 45.10 payment was received.", (PAYMENT, BALANCE)),
        ("We received your USD 7.52 payment on November 5.", (PAYMENT,)),
        ("Your most recent payment was USD 7.52.", (PAYMENT,)),
        ("Tu pago más reciente fue de USD 7,52.", (PAYMENT,)),
        ("Tu pago del 5 de noviembre fue de USD 7,52.", (PAYMENT,)),
        ("Your payment of USD 7.52 was applied to your account.", (PAYMENT,)),
        ("Registramos un abono de USD 25,10 a tu factura.", (PARTLY_PAID,)),  # what is due
    ],
)
def test_another_figure_said_as_paid_is_stopped(reply: str, evidence: tuple[str, ...]) -> None:
    assert not verify(reply, *evidence).grounded


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Pagaste USD 40,00 y te quedaron USD 7,52 a favor.", (PAYMENT,)),
        ("Recibimos tu pago de USD 40,00 el 5 de noviembre.", (PAYMENT,)),
        ("Tu último pago fue de USD 40,00 por transferencia.", (PAYMENT,)),
        ("Pagaste USD 32,48 de la factura INV-2026-000123.", (PAYMENT,)),  # what it applied
        ("You paid USD 40.00; USD 7.52 is kept as credit.", (PAYMENT,)),
        ("Pagaste y te quedan USD 7,52 a favor.", (PAYMENT,)),  # nothing said paid
        ("Si pagaste USD 45,10, envíanos el comprobante.", (PAYMENT, BALANCE)),  # a condition
        ("If you paid USD 45.10, send us the reference.", (PAYMENT, BALANCE)),
        ("No recibimos ningún pago de USD 45,10.", (PAYMENT, BALANCE)),
        ("Pagaste Bs. 1.234,56 y se acreditaron USD 20,00.", (REPORT,)),
        ("Debes USD 45,10 antes del 20 de noviembre.", (PAYMENT, BALANCE)),
        # an amount before a payment's verb is another phrase's object
        ("De tu factura de USD 45,10 pagaste USD 20,00.", (PARTLY_PAID,)),
        ("Of the USD 45.10 you paid USD 20.00 so far.", (PARTLY_PAID,)),
        ("The USD 20.00 you paid went to INV-2026-000130.", (PARTLY_PAID,)),
        # what was paid over the invoice is the credit it left
        ("Pagaste USD 7,52 de más y quedaron como saldo a favor.", (PAYMENT,)),
        ("Los USD 7,52 que pagaste de más quedaron como crédito.", (PAYMENT,)),
        ("You paid USD 7.52 extra, which we kept as credit.", (PAYMENT,)),
        ("The extra USD 7.52 we received was kept as credit.", (PAYMENT,)),
        # the bolívares of the paid dollars, by the evidence's own conversion
        ("Tu último pago fue de Bs. 1.234,56, USD 20,00 al cambio.", (PARTLY_PAID, RATE)),
        # a receipt of the payment's own figure, or one not (yet) received
        ("Your payment of USD 40.00 was received on November 5.", (PAYMENT,)),
        ("Tu pago de USD 40,00 fue recibido y USD 7,52 quedaron a favor.", (PAYMENT,)),
        ("We got your payment of USD 40.00.", (PAYMENT,)),
        ("Registramos un abono de USD 20,00 a tu factura.", (PARTLY_PAID,)),
        (
            (
                "We received your payment of USD 40.00; USD 32.48 went to INV-2026-000123 and"
                " the remaining USD 7.52 was registered to your account as credit."
            ),
            (PAYMENT,),
        ),
        (
            (
                "Recibimos tu pago de USD 40,00 y USD 7,52 fueron registrados en tu cuenta como"
                " saldo a favor."
            ),
            (PAYMENT,),
        ),
        ("Your USD 40.00 transfer was received on November 5.", (PAYMENT,)),
        ("Nos llegó tu pago de USD 40,00 y se aplicaron USD 32,48.", (PAYMENT,)),
        ("Cuando tu pago de USD 45,10 sea recibido, lo verás aquí.", (PAYMENT, BALANCE)),
        ("Tu pago de USD 45,10 aún no fue recibido.", (PAYMENT, BALANCE)),
        ("Your payment of USD 45.10 has not been received yet.", (PAYMENT, BALANCE)),
        ("Registramos tu reporte; debes USD 45,10.", (PAYMENT, BALANCE)),
        # what a receipt's words stand by is not always a payment
        ("Registramos USD 7,52 como saldo a favor.", (PAYMENT, BALANCE)),
        ("Te confirmamos USD 45,10 como total a pagar.", (PAYMENT, BALANCE)),
        ("El excedente de USD 7,52 fue registrado como saldo a favor.", (PAYMENT,)),
        ("Tu crédito de USD 7,52 ya fue registrado en tu cuenta.", (PAYMENT, BALANCE)),
        ("Your credit of USD 7.52 has been processed.", (PAYMENT,)),
        ("USD 7.52 was registered as credit on your account.", (PAYMENT,)),
    ],
)
def test_a_paid_figure_or_none_said_as_paid_passes(reply: str, evidence: tuple[str, ...]) -> None:
    result = verify(reply, *evidence)
    assert result.grounded, result.unsupported_tokens


def test_with_no_payment_in_the_evidence_the_words_are_left_to_the_figure_check() -> None:
    assert verify("Recibimos USD 45,10.", BALANCE).grounded  # a figure of the balance
    assert not verify("Recibimos USD 99,00.", BALANCE).grounded  # the figure check's
