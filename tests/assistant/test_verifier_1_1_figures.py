"""The verifier on contract 1.1's figures: rates, amounts in bolívares and payment reports.

A language model gets these wrong in a few recurring ways; each table below is one class,
each row a corrupted reply a subscriber could have been sent, in Spanish and English and in
the spellings Venezuelans write ("Bs. 1.310,40", "1310.40 bs", "Bs 1310,4", "VES 1.310,40",
"$25", "25 USD", "USD 25,00"). The evidence is the client's own rendering of contract
records (a rate carried over a Saturday, a report pending, verified and rejected) and, last,
of the in-process simulator's; true replies must keep passing.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest

from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.money import format_amount
from billing_toolkit.client import Capabilities
from billing_toolkit.client.models.billing import ExchangeRate, PaymentReport
from billing_toolkit.client.payment_report_capabilities import (
    ReportedPayment,
    conversion_evidence,
    rate_evidence,
    report_evidence,
    usd_to_ves,
)
from billing_toolkit.simulator.state.bank_statement import statement
from tests.assistant.grounding_helpers import verify
from tests.client import test_payment_report_capabilities as capability_tests
from tests.simulator.conftest import Sim

sim, caps = capability_tests.sim, capability_tests.caps

BALANCE = (
    "Balance of account 1000004821 as of 2026-11-07T10:00:00Z: amount due USD 32.48; "
    "overdue USD 0.00; credit USD 0.00; net balance USD 32.48; next due date 2026-12-15."
)
SATURDAY_RATE = ExchangeRate.model_validate(
    {
        "date": "2026-11-07",
        "rate": "91.9581",
        "scale": 4,
        "source": "BCV",
        "effective_date": "2026-11-06",
        "carried_over": True,
        "published_at": "2026-11-05T20:00:00Z",
    }
)
RATE = rate_evidence(SATURDAY_RATE) + conversion_evidence(
    Decimal("32.48"), usd_to_ves(Decimal("32.48"), Decimal("91.9581")), SATURDAY_RATE
)
"""USD 32.48 × 91.9581 = 2986.7990…: VES 2986.80, half-up to the cent."""
_REPORT: dict[str, Any] = {
    "report_id": "PRP-0000000033",
    "account_number": "1000004821",
    "status": "pending_verification",
    "method": "pago_movil",
    "amount": "1310.40",
    "currency": "VES",
    "reference": "0045127",
    "bank": "0102",
    "payment_date": "2026-11-10",
    "payer_phone": None,
    "payer_national_id": None,
    "created_at": "2026-11-10T14:00:00Z",
    "resolved_at": None,
    "rejection_reason": None,
    "payment_id": None,
    "credited_amount": None,
    "exchange_rate": None,
}
_RESOLVED = {"resolved_at": "2026-11-11T10:00:00Z"}
PENDING = report_evidence(PaymentReport.model_validate(_REPORT))
VERIFIED = report_evidence(
    PaymentReport.model_validate(
        _REPORT
        | _RESOLVED
        | {
            "status": "verified",
            "credited_amount": "14.25",  # 1310.40 / 91.9581 = 14.2499…
            "exchange_rate": "91.9581",
            "payment_id": "PAY-0000000123",
        }
    )
)
REJECTED = report_evidence(
    PaymentReport.model_validate(
        _REPORT | _RESOLVED | {"status": "rejected", "rejection_reason": "reference_not_found"}
    )
)
EVIDENCE = {
    "rate": (BALANCE, RATE),
    "pending": (BALANCE, PENDING),
    "verified": (BALANCE, VERIFIED),
    "rejected": (BALANCE, REJECTED),
}


def stopped(reply: str, evidence: str) -> tuple[str, ...]:
    return verify(reply, *EVIDENCE[evidence]).unsupported_tokens


@pytest.mark.parametrize(
    ("evidence", "reply"),
    [
        ("rate", "La tasa del 7 de noviembre de 2026 es Bs. 91,9581 por dólar."),
        ("rate", "La tasa es 91,9581 bolívares por dólar."),
        ("rate", "The rate is VES 91.9581 per USD 1.00."),
        ("rate", "Tu deuda de USD 32,48 son Bs. 2.986,80 a la tasa del 7 de noviembre de 2026."),
        ("rate", "Tu deuda de $32,48 equivale a 2986.80 bs."),
        ("rate", "Tu deuda de 32,48 USD son Bs 2986,8."),
        ("rate", "Tu deuda de 32,48 USD son VES 2.986,80."),
        ("rate", "Your balance of USD 32.48 is VES 2,986.80 at today's rate."),
        ("rate", "Rige la tasa publicada el 6 de noviembre de 2026: Bs. 91,9581 por dólar."),
        ("rate", "The rate published on November 6, 2026 applies: VES 91.9581 per dollar."),
        (
            "rate",
            (
                "No rate was published for November 7, 2026; the last published rate applies, "
                "that of November 6, 2026: 91.9581 per dollar, in bolívars (source: BCV)."
            ),
        ),
        ("pending", "Tu reporte PRP-0000000033 por Bs. 1.310,40 está pendiente de verificación."),
        ("pending", "Recibimos tu reporte PRP-0000000033 de 1310.40 bs, referencia 0045127."),
        ("pending", "Your report PRP-0000000033 for VES 1,310.40 is pending verification."),
        ("pending", "Tu reporte PRP-0000000033 aún no ha sido verificado; tu saldo no cambia."),
        ("pending", "Your report PRP-0000000033 has not been verified yet."),
        ("pending", "It will be credited once it is verified."),
        ("verified", "Tu reporte PRP-0000000033 fue verificado: se acreditaron USD 14,25."),
        ("verified", "Se acreditaron USD 14,25 a tu cuenta por el reporte PRP-0000000033."),
        # the reported amount, then in another clause what was credited
        ("verified", "Pagaste Bs. 1.310,40 y se acreditaron USD 14,25 a tu cuenta."),
        ("verified", "You paid VES 1,310.40, and USD 14.25 was credited."),
        # the reported amount right before the credit word, the credit after it
        ("verified", "Tu pago de Bs. 1.310,40 se acreditó como USD 14,25."),
        # the credit word first, the reported amount, then in the same clause the credit
        ("verified", "Acreditamos tu pago de Bs. 1.310,40 como USD 14,25."),
        ("verified", "Se acreditó tu transferencia de Bs. 1.310,40: USD 14,25."),
        ("verified", "We credited your transfer of VES 1,310.40 as USD 14.25."),
        ("verified", "Acreditamos tu pago de Bs. 1.310,40, equivalente a USD 14,25."),
        ("verified", "We credited your payment of VES 1,310.40, converted to USD 14.25."),
        # "pendiente" of what is owed is no report status
        ("verified", "Tu reporte fue verificado y ahora tu saldo pendiente es USD 32,48."),
        ("verified", "Tu reporte fue verificado; el monto pendiente de tu factura es USD 32,48."),
        ("verified", "Your report was verified; your pending balance is USD 32.48."),
        ("verified", "Tu reporte fue verificado. Tienes USD 32,48 pendiente."),
        ("verified", "Tu reporte fue verificado; tu deuda pendiente es de USD 32,48."),
        ("verified", "Your report was verified. You have a pending invoice of USD 32.48."),
        (
            "verified",
            (
                "Your report PRP-0000000033 was verified: USD 14.25 credited as payment "
                "PAY-0000000123."
            ),
        ),
        # what the reported bolívares became, said after them
        ("verified", "Acreditamos tu pago de Bs. 1.310,40, que equivalen a USD 14,25."),
        (
            "verified",
            "Tu pago de Bs. 1.310,40 se acreditó a la tasa de Bs. 91,9581 por dólar: USD 14,25.",
        ),
        ("verified", "Acreditamos Bs. 1.310,40 como USD 14,25."),
        # the same in a later sentence of a reply (its offsets are the folded sentence's)
        (
            "verified",
            "¡Hola! Acreditamos tu pago móvil de Bs. 1.310,40 como USD 14,25. ¿Algo más?",
        ),
        ("verified", "Hola.  Tu pago de Bs. 1.310,40 se acreditó como USD 14,25."),
        ("verified", "Se acreditaron USD 14,25 por tu pago de Bs. 1.310,40."),
        ("verified", "We credited VES 1,310.40, converted into USD 14.25."),
        # "pendiente" of an invoice while the report is verified
        ("verified", "Tu factura de USD 32,48 sigue pendiente."),
        ("verified", "Your invoice of USD 32.48 is still pending."),
        ("verified", "Tu reporte fue verificado y tu factura de USD 32,48 sigue pendiente."),
        # still pending, said as a wait or a condition
        ("pending", "Tu reporte sigue en espera hasta que lo verifiquemos."),
        ("pending", "Your report will stay on hold until we verify it."),
        ("pending", "Tu pago de Bs. 1.310,40 está en proceso de verificación."),
        ("pending", "Your payment of VES 1,310.40 is still being verified."),
        ("pending", "Tu reporte aún no ha sido acreditado."),
        ("rejected", "Tu reporte PRP-0000000033 fue rechazado: no encontramos la referencia."),
        # a negation ("n't", "nothing", "ni") takes the claim back; a pending claim stays
        (
            "pending",
            (
                "Your report PRP-0000000033 is still under review; nothing is credited until "
                "it's verified."
            ),
        ),
        (
            "pending",
            (
                "Your payment of VES 1,310.40 is being processed; once it's verified, it will "
                "be applied to your account."
            ),
        ),
        ("pending", "Your report hasn't been rejected; it's just pending verification."),
        (
            "pending",
            "Tu pago de Bs. 1.310,40 todavía no está acreditado; tu deuda sigue en USD 32,48.",
        ),
        ("verified", "Tu reporte no está pendiente ni fue rechazado: quedó verificado."),
        ("rejected", "Tu reporte fue rechazado, así que no se acreditó nada; debes USD 32,48."),
        ("rejected", "Your report was rejected, so nothing was credited; you still owe USD 32.48."),
        ("rejected", "Tu pago móvil de Bs. 1.310,40 no fue acreditado: el reporte fue rechazado."),
        # the reason in other words
        (
            "rejected",
            "Tu reporte fue rechazado porque la referencia 0045127 no aparece en el banco.",
        ),
        ("rejected", "Your report was declined: reference 0045127 doesn't appear in the bank."),
        ("rate", "La tasa de hoy es la misma que se publicó el 6 de noviembre de 2026."),
        ("rejected", "Your report PRP-0000000033 was rejected: reference 0045127 was not found."),
    ],
)
def test_a_true_reply_passes(evidence: str, reply: str) -> None:
    assert stopped(reply, evidence) == ()


@pytest.mark.parametrize(
    ("evidence", "reply", "wrong"),
    [
        # The right number in the wrong currency.
        ("rate", "Tu deuda es Bs. 32,48.", "32,48"),
        ("rate", "Tu deuda es 32.48 bs.", "32.48"),
        ("rate", "Tu deuda es USD 2.986,80.", "2.986,80"),
        ("rate", "La tasa es $91,9581.", "91,9581"),
        ("rate", "La tasa es 91,9581 USD.", "91,9581"),
        ("rate", "The rate is USD 91.9581.", "91.9581"),
        ("pending", "Tu reporte PRP-0000000033 por USD 1.310,40 está pendiente.", "1.310,40"),
        ("pending", "Your report PRP-0000000033 for $1,310.40 is pending.", "1,310.40"),
        ("verified", "Se acreditaron Bs. 14,25 a tu cuenta.", "14,25"),
        # A conversion at another rate, wrongly rounded, or inverted wrongly.
        ("rate", "Tu deuda de USD 32,48 son Bs. 2.986,79.", "2.986,79"),  # truncated
        ("rate", "Tu deuda de USD 32,48 son Bs 2986,7.", "2986,7"),
        ("rate", "Your USD 32.48 is VES 2,987.00.", "2,987.00"),
        ("rate", "Tu deuda de USD 32,48 son Bs. 2.990,05.", "2.990,05"),  # another day's rate
        ("rate", "Bs. 2.986,80 son USD 32,50.", "32,50"),  # the inverse, wrong
        ("rate", "La tasa es Bs. 91,96.", "91,96"),  # the rate rounded
        ("rate", "La tasa es Bs. 92,10.", "92,10"),
        ("rate", "USD 32,48 son Bs. 2.986,80 (tasa de Bs. 91,9582).", "91,9582"),
    ],
)
def test_a_wrong_currency_or_conversion_is_stopped(evidence: str, reply: str, wrong: str) -> None:
    assert wrong in stopped(reply, evidence)


@pytest.mark.parametrize(
    "reply",
    [
        "La tasa del 8 de noviembre de 2026 es Bs. 91,9581.",
        "La tasa de hoy, publicada hoy, es Bs. 91,9581.",  # carried over from Friday
        "La tasa del 6 de noviembre de 2026 es Bs. 91,9581, publicada hoy.",
        "The rate published today is VES 91.9581.",
        "La tasa fue publicada el 7 de noviembre de 2026: Bs. 91,9581 por dólar.",
        "The rate was published on November 7, 2026: VES 91.9581 per dollar.",
        "Se publicó el sábado 7 de noviembre de 2026 a Bs. 91,9581 por dólar.",
        # published said as updated, out, or moved, today
        "Hoy el BCV actualizó la tasa a Bs. 91,9581 por dólar.",
        "This rate came out today: VES 91.9581 per dollar.",
        "La tasa de hoy subió respecto a la de ayer: ahora es Bs. 91,9581 por dólar.",
        "The rate was updated today: VES 91.9581 per dollar.",
        "The BCV updated the rate today to VES 91.9581 per dollar.",
        "Today's rate is VES 91.9581 per dollar; the BCV updated it this morning.",
        "The rate came out this morning: VES 91.9581 per dollar.",
    ],
)
def test_a_rate_with_the_wrong_day_or_a_carried_rate_as_todays_is_stopped(reply: str) -> None:
    assert stopped(reply, "rate") != ()


@pytest.mark.parametrize(
    ("evidence", "reply", "wrong"),
    [
        # The report amount as the credited amount or as a new balance.
        ("pending", "Se acreditaron Bs. 1.310,40 a tu cuenta.", "se acreditaron"),
        ("pending", "Tu nuevo saldo es Bs. 1.310,40.", "nuevo saldo"),
        ("pending", "Your new balance is USD 18.23.", "new balance"),
        ("pending", "Tu reporte por 1310.40 bs ya se abonó a tu cuenta.", "se abono"),
        ("verified", "Tu reporte fue verificado: se acreditaron Bs. 1.310,40.", "1.310,40"),
        ("verified", "Se acreditaron USD 14,52 a tu cuenta.", "14,52"),
        ("verified", "Pagaste Bs. 1.310,40 y se acreditaron USD 14,52.", "14,52"),
        ("verified", "Bs. 1.310,40 acreditados a tu cuenta.", "1.310,40"),
        ("verified", "Bs. 1.310,40 fueron verificados y acreditados.", "1.310,40"),
        ("verified", "Bs. 1.310,40, acreditados a tu cuenta.", "1.310,40"),
        ("verified", "Tu pago de Bs. 1.310,40 se acreditó como USD 14,52.", "1.310,40"),
        ("verified", "Acreditamos tu pago de Bs. 1.310,40 como USD 14,52.", "1.310,40"),
        ("verified", "Acreditamos tu pago de Bs. 1.310,40; tu saldo es USD 14,25.", "1.310,40"),
        ("verified", "Acreditamos Bs. 1.310,40 a tu cuenta, tu saldo es USD 14,25.", "1.310,40"),
        ("verified", "Se acreditaron Bs. 1.310,40 por tu pago de USD 14,25.", "1.310,40"),
        # the reported bolívares said as credited, the credit then in another phrase
        ("verified", "Acreditamos Bs. 1.310,40, quedan USD 14,25 a favor.", "1.310,40"),
        ("verified", "Hola. Acreditamos Bs. 1.310,40, quedan USD 14,25 a favor.", "1.310,40"),
        ("verified", "Bs. 1.310,40 acreditados, USD 14,25 de saldo a favor.", "1.310,40"),
        ("verified", "We credited VES 1,310.40, leaving USD 14.25 in credit.", "1,310.40"),
        ("verified", "VES 1,310.40 credited, USD 14.25 left as credit.", "1,310.40"),
        (
            "verified",
            "Tu reporte por Bs. 1.310,40 es un monto pendiente de verificación.",
            "pendiente",
        ),
        ("verified", "Tu reporte quedó pendiente y tu saldo pendiente es USD 32,48.", "pendiente"),
        # An id altered by one digit.
        ("pending", "Tu reporte PRP-0000000034 por Bs. 1.310,40 está pendiente.", "PRP-0000000034"),
        ("pending", "Your report PRP-0000000023 is pending.", "PRP-0000000023"),
        ("pending", "Tu reporte PRP-0000000033 (referencia 0045128) está pendiente.", "0045128"),
        ("verified", "Quedó registrado como el pago PAY-0000000124.", "0000000124"),
        # The status changed.
        ("pending", "Tu reporte PRP-0000000033 por Bs. 1.310,40 ya fue verificado.", "verificado"),
        ("pending", "Your report PRP-0000000033 for VES 1,310.40 has been verified.", "verified"),
        ("pending", "Your report PRP-0000000033 was approved.", "approved"),
        ("pending", "Tu reporte PRP-0000000033 fue rechazado.", "rechazado"),
        ("verified", "Tu reporte PRP-0000000033 está pendiente de verificación.", "pendiente"),
        ("verified", "Your report PRP-0000000033 was rejected.", "rejected"),
        ("rejected", "Tu reporte PRP-0000000033 fue verificado.", "verificado"),
        ("rejected", "Your payment report is still pending.", "pending"),
        # pending said as a wait, a process, a "not yet" or a condition
        (
            "verified",
            "The VES 1,310.40 you reported is a pending amount until we verify it.",
            "until",
        ),
        ("verified", "Tu reporte sigue en espera hasta que lo verifiquemos.", "en espera"),
        ("verified", "Your report will stay on hold until we verify it.", "on hold"),
        ("verified", "Tu pago de Bs. 1.310,40 está en proceso de verificación.", "en proceso"),
        ("verified", "Your payment of VES 1,310.40 is still being verified.", "being verified"),
        ("verified", "Tu reporte aún está siendo revisado.", "siendo revisado"),
        ("verified", "Tu reporte todavía no ha sido acreditado.", "todavia no"),
        ("verified", "Your report has not yet been approved.", "not yet"),
        ("rejected", "Your report is being reviewed.", "being reviewed"),
        ("rejected", "Tu reporte sigue en revisión.", "en revision"),
        ("pending", "Listo, ya quedó aplicado tu pago de Bs. 1.310,40.", "quedo"),
        ("pending", "Your payment of VES 1,310.40 was applied.", "applied"),
        # The rejection reason swapped.
        ("rejected", "Fue rechazado porque el monto no coincide.", "monto no coincide"),
        ("rejected", "It was rejected: the amount does not match.", "amount does not match"),
        ("rejected", "Fue rechazado: la referencia está duplicada.", "duplicad"),
        ("rejected", "It was rejected: that reference had already been reported.", "already"),
        ("rejected", "Rechazado: ese método no se recibe en esa moneda.", "no se recibe"),
    ],
)
def test_a_report_misstated_is_stopped(evidence: str, reply: str, wrong: str) -> None:
    assert any(wrong in token for token in stopped(reply, evidence)), stopped(reply, evidence)


@pytest.mark.parametrize(
    ("evidence", "reply"),
    [
        # verified said as "it went through", "validated", "posted", "successful"
        ("pending", "Your payment went through, thanks!"),
        ("pending", "Your payment of VES 1,310.40 has been processed successfully."),
        ("pending", "Ya validamos tu pago móvil de Bs. 1.310,40."),
        ("pending", "Tu pago fue aceptado y ya se refleja en tu cuenta."),
        ("pending", "Tu pago ya está conciliado."),
        ("pending", "Your payment has been posted to your account."),
        ("pending", "Tu pago fue exitoso."),
        ("rejected", "Your payment was successful."),
        # rejected said as "not approved", "cancelled", "didn't go through"
        (
            "pending",
            "Lamentablemente tu reporte no fue aprobado porque no encontramos la referencia.",
        ),
        ("pending", "Tu reporte quedó anulado."),
        ("verified", "Your payment didn't go through."),
        # pending said as a future verification, a check under way, a "not yet"
        ("verified", "Te avisaremos cuando tu pago sea verificado."),
        ("verified", "We'll let you know once your payment is verified."),
        ("verified", "Estamos verificando tu pago con el banco."),
        ("verified", "Tu pago aún no se refleja en tu saldo."),
        ("rejected", "Aún no tenemos respuesta del banco sobre tu pago."),
        # the reported bolívares credited "to you"
        ("verified", "Se te acreditaron Bs. 1.310,40."),
        ("verified", "Tu pago fue verificado y se te abonaron Bs. 1.310,40 a tu saldo."),
        # a reason the evidence does not give, or none of the contract's
        ("rejected", "Your report was rejected because the amount didn't match."),
        ("rejected", "Rechazamos tu reporte porque el pago se hizo desde la cuenta de un tercero."),
        ("rejected", "Your report was rejected because the payment date was outside the window."),
        ("rejected", "Fue rechazado: los datos del pagador no coinciden."),
    ],
)
def test_a_status_or_reason_said_another_way_is_stopped(evidence: str, reply: str) -> None:
    assert stopped(reply, evidence) != ()


@pytest.mark.parametrize(
    "reply",
    [
        "Tu deuda es Bs. 91,9581.",  # the rate said as the amount
        "Tu deuda es de 91,9581.",
        "You owe 91.9581.",
    ],
)
def test_the_rate_said_as_an_amount_is_stopped(reply: str) -> None:
    assert stopped(reply, "rate") != ()


def test_a_status_word_is_not_checked_without_a_report_in_the_evidence() -> None:
    """A payment the evidence states (no report) may be said to be credited."""
    payment = (
        "Last payment PAY-0000000123 of account 1000004821: USD 32.48 on 2026-11-06, "
        "credited to invoice INV-2026-004281."
    )
    assert verify("Tu pago PAY-0000000123 fue acreditado.", payment).grounded


def test_the_simulators_report_and_saturday_rate_are_held_to_their_status_and_day(
    sim: Sim, caps: Capabilities
) -> None:
    """Real evidence: a report filed with the simulator is pending, and Saturday's rate is
    Friday's; the true replies pass, "verificado" and "publicada hoy" do not."""
    customer = sim.sample("open_invoice")
    today = sim.control.clock.now().date()
    entry = next(e for e in statement(sim.config.seed, "fibranet", today) if e.currency == "VES")
    paid = ReportedPayment(
        entry.method, entry.amount, "VES", entry.reference, entry.payment_date, entry.bank
    )
    filed = caps.report_payment(
        customer["account_number"], paid, idempotency_key="verifier-1-1-figures"
    )
    report = filed.data
    assert filed.evidence_text is not None and isinstance(report, dict)
    saturday = today - timedelta(days=(today.weekday() - 5) % 7)  # the last Saturday
    rate = caps.exchange_rate(saturday)
    assert rate.evidence_text is not None and isinstance(rate.data, dict)
    evidence = (filed.evidence_text, rate.evidence_text)
    amount = format_amount(str(entry.amount), "VES", Language.SPANISH)
    said = f"Tu reporte {report['report_id']} por {amount}"
    figure = str(rate.data["rate"]).replace(".", ",")
    assert verify(f"{said} está pendiente de verificación.", *evidence).grounded
    assert not verify(f"{said} ya fue verificado.", *evidence).grounded
    assert verify(f"La tasa es Bs. {figure} por dólar.", *evidence).grounded
    assert not verify(
        f"La tasa de hoy es Bs. {figure} por dólar, publicada hoy.", *evidence
    ).grounded
