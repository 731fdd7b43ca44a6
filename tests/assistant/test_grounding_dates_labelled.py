"""A date said to be when something falls due, was issued or was received is stopped when
it is another field's date (`guards/labelled_dates.py`): "vence el 6 de noviembre" of an
invoice issued on the 6th and due on the 21st is a true date said of the wrong thing."""

from __future__ import annotations

import pytest

from billing_toolkit.assistant.text.language import Language
from tests.assistant.grounding_helpers import verify

INVOICE = (
    "Invoice INV-2026-008372 of account 1000004821: status open; period 2026-11-06 to"
    " 2026-12-05; issued 2026-11-06; due 2026-11-21; total USD 32.48; paid USD 0.00;"
    " amount due USD 32.48."
)
BALANCE = (
    "Balance of account 1000004821 as of 2026-11-10T13:00:00Z: amount due USD 32.48;"
    " overdue USD 0.00; credit USD 0.00; net balance USD 32.48; next due date 2026-11-21."
    " 11 days until the next due date 2026-11-21 (computed from the balance's date)."
)
ARREARS = (
    "Arrears of account 1065304150 as of 2026-11-10: overdue USD 14.89; overdue invoices"
    " INV-2026-008043; late fees billed on them USD 0.71 (computed, sum of their late_fee"
    " lines); the oldest fell due 2026-11-02, 8 days ago (computed)."
)
PLAN = (
    'Account 1000004821 is on plan PLN-FIBRA-100 "Fibra 100" (100/50 Mbps, USD 28.00 per'
    " month) since 2026-01-06; subscription status active; billing day 6; next billing date"
    " 2026-12-06. No plan change is scheduled."
)
PAYMENT = (
    "Last payment of account 1000004821: PAY-0000011932 of USD 32.48 by card (reference"
    " 119536), received 2026-10-19T10:00:00Z; applied USD 32.48 to INV-2026-007832;"
    " unapplied (kept as credit) USD 0.00."
)
REPORT = (
    "Payment report PRP-0000000007 for account 1000004821: transfer VES 1234.56, reference"
    " 98765432, bank 0102, paid 2026-11-04, reported 2026-11-05T15:00:00Z; status"
    " pending_verification."
)


def _language(reply: str) -> Language:
    return Language.ENGLISH if reply[:1].isascii() and " el " not in reply else Language.SPANISH


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        # the issue date, the period's end or another field's date said as the due date
        ("Tu factura INV-2026-008372 vence el 6 de noviembre de 2026.", (INVOICE,)),
        ("La fecha de vencimiento es el 5 de diciembre de 2026.", (INVOICE,)),
        ("Tu factura vence el 5 de diciembre.", (INVOICE,)),
        ("Tienes que pagarla antes del 6 de noviembre.", (INVOICE,)),
        ("Tu fecha límite de pago es el 10 de noviembre.", (BALANCE,)),  # the balance's date
        ("Your invoice is due on November 6, 2026.", (INVOICE,)),
        ("Your next due date is December 5, 2026.", (INVOICE, BALANCE)),
        ("Please pay it by November 10.", (BALANCE,)),
        ("La factura vencida más antigua venció el 10 de noviembre.", (ARREARS,)),
        # the due date said as the issue date, or the next invoice's day misplaced
        ("Tu factura INV-2026-008372 fue emitida el 21 de noviembre de 2026.", (INVOICE,)),
        ("Your invoice was issued on November 21, 2026.", (INVOICE,)),
        ("Tu próxima factura se emite el 1 de diciembre de 2026.", (PLAN,)),
        ("Your next invoice will be billed on January 6, 2027.", (PLAN,)),
        # another record's date said as when the payment came in
        ("Recibimos tu pago el 21 de noviembre de 2026.", (INVOICE, PAYMENT)),
        ("We received your payment on November 6.", (INVOICE, PAYMENT)),
        ("Recibimos tu pago de USD 32,48 con tarjeta el 21 de noviembre.", (INVOICE, PAYMENT)),
        ("Tu factura INV-2026-008372 por USD 32,48 vence el 6 de noviembre.", (INVOICE,)),
        ("Pagaste el 5 de noviembre, según tu reporte.", (REPORT,)),  # the day it was reported
    ],
)
def test_a_date_said_of_the_wrong_field_is_stopped(reply: str, evidence: tuple[str, ...]) -> None:
    assert not verify(reply, *evidence, language=_language(reply)).grounded


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        (
            (
                "Factura INV-2026-008372 (abierta): período del 6 de noviembre de 2026 al 5 de"
                " diciembre de 2026, emitida el 6 de noviembre de 2026, vence el 21 de"
                " noviembre de 2026."
            ),
            (INVOICE,),
        ),
        (
            (
                "Invoice INV-2026-008372 (open): period November 6, 2026 to December 5, 2026,"
                " issued November 6, 2026, due November 21, 2026."
            ),
            (INVOICE,),
        ),
        ("Emitida el 6 de noviembre y vence el 21 de noviembre.", (INVOICE,)),
        ("Tu próximo vencimiento es el 21 de noviembre de 2026.", (BALANCE,)),
        ("Te quedan 11 días: vence el 21 de noviembre.", (BALANCE,)),
        ("La factura vencida más antigua venció el 2 de noviembre de 2026.", (ARREARS,)),
        ("Tu próxima factura se emite el 6 de diciembre de 2026.", (PLAN,)),
        ("Recibimos tu pago el 19 de octubre de 2026.", (PAYMENT,)),
        ("Recibimos tu pago de USD 32,48 con tarjeta el 19 de octubre.", (INVOICE, PAYMENT)),
        ("Tu factura INV-2026-008372 por USD 32,48 vence el 21 de noviembre.", (INVOICE,)),
        ("Reportaste que pagaste el 4 de noviembre.", (REPORT,)),
        # what was received is the report, not the payment: its own day
        ("Recibimos tu reporte el 5 de noviembre de 2026.", (REPORT,)),
        ("We received your report on November 5, 2026.", (REPORT,)),
        # a date the field's words do not stand by is the date check's alone
        ("Al 10 de noviembre tu saldo es USD 32,48; vence el 21 de noviembre.", (BALANCE,)),
        ("El período va del 6 de noviembre al 5 de diciembre.", (INVOICE,)),
        ("Tu factura del 6 de noviembre vence el 21 de noviembre.", (INVOICE,)),
        # no date of the field in the evidence: nothing to hold it to
        ("Tu pago se recibió el 6 de noviembre.", (INVOICE,)),
    ],
)
def test_a_date_said_of_its_own_field_passes(reply: str, evidence: tuple[str, ...]) -> None:
    result = verify(reply, *evidence, language=_language(reply))
    assert result.grounded, result.unsupported_tokens
