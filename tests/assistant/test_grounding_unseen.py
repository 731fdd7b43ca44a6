"""The verifier against answers no earlier test wrote: a judge's reading of issue #24.

Each class of the issue (a figure's currency, amounts in words, figures and dates bound to
their record, dates as people write them, relative dates) gets new answers a language model
would write, in Spanish and English, against evidence written the way the capabilities write
it (`client/evidence.py`, `client/due_figures.py`). A wrong answer judged grounded and a
correct one rejected were both found here before the fix that each group names.
"""

from __future__ import annotations

import pytest

from billing_toolkit.assistant.text.language import Language
from tests.assistant.grounding_helpers import verify

ES, EN = Language.SPANISH, Language.ENGLISH
A, B = "INV-2026-004281", "INV-2026-004100"
BALANCE = (
    "Balance of account 1000004821 as of 2026-11-29T10:00:00Z: amount due USD 45.00; "
    "overdue USD 0.00; credit USD 0.00; net balance USD 45.00; next due date 2026-12-15. "
    "16 days until the next due date 2026-12-15 (computed from as of 2026-11-29)."
)
"""2026-12-15 is a Tuesday."""
VES_BALANCE = (
    "Balance of account 1000004821 as of 2026-11-29T10:00:00Z: amount due VES 1234.56; "
    "overdue VES 0.00; credit VES 0.00; net balance VES 1234.56; next due date 2026-12-15."
)
INVOICES = (
    "The 2 most recent invoices of account 1000004821 (newest first; that is all of them): "
    f"Invoice {A} of account 1000004821: status open; period 2026-11-05 to 2026-12-04; "
    "issued 2026-12-05; due 2026-12-15; total USD 45.50; paid USD 0.00; amount due USD 45.50. "
    f"Invoice {B} of account 1000004821: status paid; period 2026-10-05 to 2026-11-04; "
    "issued 2026-11-05; due 2026-11-20; total USD 32.48; paid USD 32.48; amount due USD 0.00."
)
VES_INVOICE = (
    f"Invoice {A} of account 1000004821: status open; period 2026-11-05 to 2026-12-04; "
    "issued 2026-12-05; due 2026-12-15; total VES 1234.56; paid VES 0.00; amount due VES "
    '1234.56. Line items: plan_charge "Fibra 100" VES 1064.28; tax "IVA 16%" VES 170.28. '
    "Subtotal VES 1064.28; tax VES 170.28; total VES 1234.56; revision 1."
)
PAYMENT = (
    "Last payment of account 1000004821: PAY-0000012399 of USD 77.98 by transfer, received "
    f"2026-12-18T14:00:00Z; applied USD 45.50 to {A}; USD 32.48 to {B}; unapplied (kept as "
    "credit) USD 0.00."
)
PLAN = (
    'Account 1000004821 is on plan PLN-FIBRA-100 "Fibra 100" (100/20 Mbps, USD 28.00 per '
    "month) since 2025-01-10; subscription status active; billing day 5; next billing date "
    '2026-12-05. Scheduled plan change to PLN-FIBRA-300 "Fibra 300" (300/50 Mbps, USD 40.00 '
    "per month) on 2027-01-05."
)
COMPARISON = (
    f"Comparing invoice {A} (issued 2026-12-05, total USD 45.50) with the previous invoice "
    f"{B} (issued 2026-11-05, total USD 32.48) of account 1000004821: the total increased by "
    'USD 13.02 (computed); new line late_fee "Recargo por mora" USD 5.00; plan_charge went '
    "from USD 28.00 to USD 36.02, increased by USD 8.02 (computed); tax unchanged at USD 4.48."
)
ARREARS = (
    "Arrears of account 1000004821 as of 2026-11-29: overdue USD 45.50; overdue invoices "
    f"{A}; late fees billed on them USD 5.00 (computed, sum of their late_fee lines); the "
    "oldest fell due 2026-11-20, 9 days ago (computed)."
)


def _grounded(answer: str, *evidence: str, language: Language = ES) -> None:
    result = verify(answer, *evidence, language=language)
    assert result.grounded, result.unsupported


def _rejected(answer: str, *evidence: str, language: Language = ES) -> None:
    assert not verify(answer, *evidence, language=language).grounded


class TestCurrency:
    @pytest.mark.parametrize(
        "answer",
        [
            "Tu saldo es de Bs. 1.234,56.",
            "Tu saldo es de 1.234,56 Bs.",
            "Tu saldo es de Bs.1.234,56.",
            "Tu saldo es de BsD 1.234,56.",
            "Tu saldo es de 1.234,56 bolívares.",
            "Tu saldo es de mil doscientos treinta y cuatro bolívares con cincuenta y seis.",
            "Debes mil doscientos treinta y cuatro con cincuenta y seis bolívares.",
        ],
    )
    def test_a_bolivar_balance_told_in_bolivares_is_grounded(self, answer: str) -> None:
        _grounded(answer, VES_BALANCE)

    @pytest.mark.parametrize(
        "answer",
        [
            "Tu saldo es de US$ 1.234,56.",
            "Tu saldo es de 1.234,56 dólares.",
            "Tu saldo es de mil doscientos treinta y cuatro dólares con cincuenta y seis.",
            "Tu saldo es de 1.234,56 €.",
            "Tu saldo es de 1.234,56 bolívares fuertes.",  # found grounded: the retired VEF
        ],
    )
    def test_a_bolivar_balance_told_in_another_currency_is_rejected(self, answer: str) -> None:
        _rejected(answer, VES_BALANCE)

    @pytest.mark.parametrize(
        ("answer", "grounded"),
        [
            ("Debes USD 45 mil.", False),  # found judged grounded: 45 thousand read as 45
            ("Debes USD 45k.", False),
            ("Debes 45 mil dólares.", False),
            ("Debes 45 centavos.", False),  # cents alone name no currency the evidence has
            ("Debes cuarenta y cinco centavos.", False),  # found judged grounded
            ("Debes 45 dólares con 00 centavos.", True),
        ],
    )
    def test_a_scale_or_cents_word_is_part_of_the_figure(self, answer: str, grounded: bool) -> None:
        assert verify(answer, BALANCE).grounded is grounded

    @pytest.mark.parametrize(
        ("answer", "grounded"),
        [
            # found rejected: the code's "52K" read as 52 thousand, a filed report handed over
            ("Registré tu reporte con la confirmación 7HG52K, por USD 52,00.", True),
            ("Registré tu reporte con la confirmación 7HG99K.", False),  # an invented code
            ("Reportaste USD52k.", False),  # after a currency it is still a scale
            ("Reportaste Bs52k.", False),
            ("Reportaste 52k.", False),
        ],
    )
    def test_digits_inside_a_code_are_not_a_scaled_figure(
        self, answer: str, grounded: bool
    ) -> None:
        report = (
            "Payment report PRP-000123 of account 1000004821: method zelle; amount USD 52.00; "
            "reference 7HG52K; paid 2026-11-29; status pending_verification."
        )
        assert verify(answer, report).grounded is grounded


class TestAmountsInWords:
    @pytest.mark.parametrize(
        "answer",
        [
            # found rejected: cents after the unit with "con" and no cents word
            f"La factura {A} es de cuarenta y cinco dólares con cincuenta.",
            f"La factura {A} es de 45 dólares con 50 centavos.",  # found rejected: digit cents
            f"La factura {A} es de 45 dólares con 50.",
            f"La factura {A} es de USD 45 y 50 centavos.",
            f"Invoice {A} is forty-five dollars and fifty cents.",
            f"Invoice {A} is forty-five and a half dollars.",
            f"La factura {A} es de cuarenta y cinco dólares y medio.",
        ],
    )
    def test_cents_written_after_the_unit_are_read(self, answer: str) -> None:
        _grounded(answer, INVOICES)

    @pytest.mark.parametrize(
        "answer",
        [
            "Debes cuarenta y cinco dólares con cincuenta.",  # found grounded: cents ignored
            "Debes cuarenta y cinco dólares y medio.",  # found grounded: the half ignored
            "You owe forty-five and a half dollars.",
            "You owe forty-five dollars and a half.",
            "Debes 45 dólares con 50 centavos.",
            "Debes USD 45,00 con 20.",  # cents after decimals: no figure
            "Debes 45 dólares con 100 centavos.",
            "Debes cuarenta y cinco dólares con cien centavos.",
        ],
    )
    def test_cents_that_change_the_amount_are_rejected(self, answer: str) -> None:
        _rejected(answer, BALANCE)

    def test_glued_spanish_tens_are_read(self) -> None:
        _grounded("Debes cuarentaicinco dólares.", BALANCE)
        _rejected("Debes cuarentaiséis dólares.", BALANCE)

    @pytest.mark.parametrize(
        ("answer", "grounded"),
        [
            ("Tienes un recargo por mora de seis.", False),  # found grounded: no unit
            ("Tienes un recargo por mora de cinco.", True),
            ("Te quedan quince días para pagar.", False),
            ("Tienes dos facturas vencidas.", True),  # a count of things is no figure
            ("Tienes una.", True),
        ],
    )
    def test_a_number_word_ending_its_phrase_is_a_figure(self, answer: str, grounded: bool) -> None:
        assert verify(answer, ARREARS).grounded is grounded


class TestRecordBinding:
    @pytest.mark.parametrize(
        "answer",
        [
            # the known gap of the first reading: both totals in one comparison sentence
            f"Tu factura {A} (USD 32,48) subió USD 13,02 respecto a la {B} (USD 45,50).",
            f"La factura {A} fue de USD 32,48 y la {B} de USD 45,50.",
            f"La factura {A} se emitió el 5 de noviembre de 2026.",
            f"The {B} invoice was USD 45.50 and the {A} one USD 32.48.",
        ],
    )
    def test_a_comparison_figure_of_the_other_invoice_is_rejected(self, answer: str) -> None:
        _rejected(answer, COMPARISON, language=EN if "invoice was" in answer else ES)

    @pytest.mark.parametrize(
        "answer",
        [
            f"Tu factura {A} (USD 45,50) subió USD 13,02 respecto a la {B} (USD 32,48).",
            f"La factura {B} se emitió el 5 de noviembre de 2026 y la {A} el 5 de diciembre.",
            f"La factura {B} era de USD 32,48 y subió USD 13,02.",
            (
                f"Your invoice {A} is USD 45.50, up USD 13.02 from {B} (USD 32.48): a late fee of "
                "USD 5.00 was added and the plan charge rose from USD 28.00 to USD 36.02."
            ),
            f"En tu cuenta 1000004821, la factura {B} fue de USD 32,48.",
        ],
    )
    def test_a_comparison_told_right_is_grounded(self, answer: str) -> None:
        _grounded(answer, COMPARISON, language=EN)

    def test_a_payment_split_between_invoices_binds_each_share_to_its_invoice(self) -> None:
        _grounded(f"Tu pago de USD 77,98 cubrió la {A} (USD 45,50) y la {B} (USD 32,48).", PAYMENT)
        _grounded(f"Del pago se aplicaron USD 45,50 a la {A} y USD 32,48 a la {B}.", PAYMENT)
        _rejected(f"Tu pago de USD 77,98 cubrió la {A} (USD 32,48) y la {B} (USD 45,50).", PAYMENT)
        _rejected(f"Del pago se aplicaron USD 32,48 a la {A} y USD 45,50 a la {B}.", PAYMENT)

    @pytest.mark.parametrize(
        ("answer", "grounded"),
        [
            # found rejected: the date's clause names the new plan, after it
            (
                ("Tu plan PLN-FIBRA-100 cuesta USD 28,00 al mes; a partir del 5 de enero de "
                "2027 pasarás al PLN-FIBRA-300 por USD 40,00."),
                True,
            ),
            (("Tu plan PLN-FIBRA-100 cuesta USD 28,00; desde el 5 de enero de 2027 pagarás "
             "USD 28,00 por el PLN-FIBRA-300."), False),
            ("Tu cuenta 1000004821 cambiará al plan PLN-FIBRA-300 el 5 de enero de 2027.", True),
        ],
    )  # fmt: skip
    def test_a_figure_before_its_clauses_identifier_is_that_ones(
        self, answer: str, grounded: bool
    ) -> None:
        assert verify(answer, PLAN).grounded is grounded

    @pytest.mark.parametrize(
        ("answer", "grounded"),
        [
            (f"- {A}: USD 45,50, vence el 15/12\n- {B}: USD 32,48, venció el 20/11", True),
            (f"- {A}: USD 45,50, vence el 20/11\n- {B}: USD 32,48, venció el 15/12", False),
            (f"{A}: USD 45,50 (vence el 20 de noviembre). {B}: USD 32,48.", False),
            (f"Invoice {A} totals $32.48 and is due on Dec 15.", False),
            (f"Invoice {B} was due on Nov 20 and you paid it in full ($32.48).", True),
        ],
    )
    def test_invoice_lists_as_models_write_them(self, answer: str, grounded: bool) -> None:
        assert verify(answer, INVOICES, language=ES).grounded is grounded


class TestDates:
    @pytest.mark.parametrize(
        "answer",
        [
            "Vence el mar. 15 de dic.",  # found rejected: `mar.` read as March
            "Vence el mar 15/12.",
            "Vence el 15/12.",  # found rejected: a day and month with no year
            "Vence el 15/12/26.",
            "Vence el dic. 15.",  # found rejected: a Spanish month before its day
            "Vence dic 15, 2026.",
            "Vence diciembre 15 de 2026.",
            "Vence el 15 dic.",
            "Vence el 15 dic 2026.",
            "Tu factura de diciembre vence el 15.",
            "Vence el 15 de diciembre (martes).",
            "Vence el 15 de diciembre, un martes.",
            "Tu plan es de 100/20 Mbps.",  # a speed, not a date
        ],
    )
    def test_a_spanish_date_as_people_write_it_is_grounded(self, answer: str) -> None:
        _grounded(answer, BALANCE, PLAN)

    @pytest.mark.parametrize(
        ("answer", "grounded"),
        [
            # found rejected: two months in the sentence, one in the day's clause
            ("Tu factura de diciembre vence el 15; la de noviembre venció el 20.", True),
            ("La de noviembre venció el 20; la de diciembre vence el 15.", True),
            ("La de noviembre venció el 20; la de diciembre vence el 16.", False),
            ("La de noviembre venció el 15; la de diciembre vence el 20.", False),
        ],
    )
    def test_el_15_takes_the_month_of_its_clause(self, answer: str, grounded: bool) -> None:
        assert verify(answer, INVOICES).grounded is grounded

    @pytest.mark.parametrize(
        "answer", ["Due 12/15.", "Due Tue, Dec. 15.", "It is due December 15 (a Tuesday)."]
    )
    def test_an_english_date_as_people_write_it_is_grounded(self, answer: str) -> None:
        _grounded(answer, BALANCE, language=EN)

    @pytest.mark.parametrize(
        "answer",
        [
            "Vence el vie. 15 de dic.",  # found grounded: an abbreviated weekday not read
            "Vence el vie 15/12.",
            "Vence el 16/12.",
            "Vence el 16/12/26.",
            "Vence el dic. 16.",  # found grounded: `16` backed by "IVA 16%"
            "Vence diciembre 16.",
            "Vence el 16 dic.",
            "Tu factura de diciembre vence el 16.",
            "Vence el 15 de diciembre (viernes).",  # found grounded: a weekday after its date
            "Vence el 15 de diciembre, un viernes.",
        ],
    )
    def test_a_wrong_spanish_date_is_rejected(self, answer: str) -> None:
        _rejected(answer, BALANCE, VES_INVOICE)

    @pytest.mark.parametrize(
        "answer", ["Due 12/16.", "It is due December 15 (a Friday).", "Due Dec. 16th."]
    )
    def test_a_wrong_english_date_is_rejected(self, answer: str) -> None:
        _rejected(answer, BALANCE, VES_INVOICE, language=EN)

    def test_a_short_numeric_date_both_readings_allow_needs_the_replys_locale(self) -> None:
        evidence = "next due date 2026-11-05"
        assert verify("Vence el 05/11.", evidence).unsupported_tokens == ("05/11",)
        _grounded("Vence el 05/11.", evidence, language=ES)
        _rejected("Due 05/11.", evidence, language=EN)
        _grounded("Due 11/05.", evidence, language=EN)
        _grounded("Vence el 05/13.", "next due date 2026-05-13")  # one real reading


class TestRelativeDates:
    @pytest.mark.parametrize(
        "answer",
        [
            "Vence el viernes.",  # found grounded: a weekday with no date
            "Due this Friday.",
            "Due on Friday.",
            "Vence el 16 de este mes.",
            "Vence el 15 del mes que viene.",
            "Vence a fin de mes.",
            "Vence a finales de diciembre.",
            "Due at the end of the month.",
            "Due in a week.",
            "Due a week from today.",
            "Vence esta semana.",
            "Due this week.",
            "Due in a few days.",
            "Vence en unos días.",
            "Vence hoy.",
            "Due today.",
            "Tu saldo vence en 15 días.",  # the evidence counts 16
            "Tu saldo vence dentro de quince días.",
            "Venció hace 3 días.",
            "Vence mañana.",
        ],
    )
    def test_a_relative_date_the_evidence_does_not_count_is_rejected(self, answer: str) -> None:
        _rejected(answer, BALANCE)

    @pytest.mark.parametrize(
        ("answer", "evidence"),
        [
            # found rejected: the capabilities' computed count of days backs its wording
            ("Tu saldo es USD 45,00 y vence el 15 de diciembre, en 16 días.", BALANCE),
            ("Your balance of USD 45.00 is due December 15, in 16 days.", BALANCE),
            ("Tu saldo vence dentro de dieciséis días.", BALANCE),
            (f"La factura {A} venció el 20 de noviembre, hace 9 días.", ARREARS),
            (f"Your invoice {A} fell due November 20 (9 days ago).", ARREARS),
            ("Vence mañana.", "1 days until the next due date 2026-11-30 (computed)."),
            ("Your invoice is due today.", "0 days until the next due date 2026-11-29."),
            ("Due two weeks from now.", "14 days until the next due date 2026-12-13."),
        ],
    )
    def test_a_relative_date_the_evidence_counts_is_grounded(
        self, answer: str, evidence: str
    ) -> None:
        _grounded(answer, evidence)

    @pytest.mark.parametrize(
        ("answer", "grounded"),
        [
            # found rejected: the count is the balance's, the due date the invoice's
            (f"Tu factura {A} es de USD 45,50 y vence el 15 de diciembre (en 16 días).", True),
            (f"Invoice {A} (USD 45.50) is due Tuesday, December 15, 16 days from now.", True),
            (f"Tu factura {A} vence en 15 días.", False),
            (f"Tu factura {B} vence en 16 días.", False),  # 16 days from as-of is A's date
        ],
    )
    def test_a_count_of_days_from_the_as_of_date_lands_on_its_records_date(
        self, answer: str, grounded: bool
    ) -> None:
        assert verify(answer, BALANCE, INVOICES).grounded is grounded

    def test_two_as_of_dates_count_from_neither(self) -> None:
        other = "Arrears of account 1000004821 as of 2026-11-30: overdue USD 0.00."
        _rejected(f"Tu factura {A} vence en 16 días.", INVOICES, VES_BALANCE, other)
        _grounded(f"Tu factura {A} vence en 16 días.", INVOICES, VES_BALANCE)

    def test_a_count_said_of_a_record_is_backed_by_that_records_dates(self) -> None:
        # the arrears' "9 days ago" is A's; B's own due date is 9 days before the as-of too
        _grounded(f"La factura {B} venció hace 9 días.", ARREARS, INVOICES)
        _rejected(f"La factura {B} venció hace 10 días.", ARREARS, INVOICES)
        _rejected(f"La factura {B} venció hace 9 días.", ARREARS)  # no record of B's date

    def test_a_greeting_today_or_this_months_bill_is_no_date(self) -> None:
        _grounded("Hola, ¿en qué puedo ayudarte hoy? Tu saldo es USD 45,00.", BALANCE)
        _grounded(f"Your bill this month, {A}, is USD 45.50.", INVOICES, language=EN)
        _grounded(f"Tu factura de este mes, {A}, es de USD 45,50.", INVOICES)
