"""The rules that read what subscribers ask (issue 25), as pure functions: complaints and
people first, periods, last digits, pointing back, several parts, sentence ends."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from billing_toolkit.assistant.store.model import Referent, Referents
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.sentences import split_sentences
from billing_toolkit.assistant.turn.intents import route, route_parts, topic_words
from billing_toolkit.assistant.turn.invoice_choice import (
    invoices_ending_in,
    invoices_of_period,
    months_before,
    periods_on_record,
)
from billing_toolkit.assistant.turn.payment_choice import (
    months_paid,
    payment_before,
    payments_of_period,
)
from billing_toolkit.assistant.turn.referents import resolve, shown_by
from billing_toolkit.assistant.understanding.complaint import is_complaint
from billing_toolkit.assistant.understanding.keyword_classifier import KeywordClassifier
from billing_toolkit.assistant.understanding.partial_identifiers import suffix_asked
from billing_toolkit.assistant.understanding.periods import (
    PeriodAsked,
    follow_up_period,
    payment_period_asked,
    period_asked,
)
from billing_toolkit.assistant.understanding.person_request import (
    asks_for_person,
    asks_for_sales,
)
from billing_toolkit.assistant.understanding.referring import Pointer, pointer_in
from billing_toolkit.assistant.understanding.segments import split_clauses
from billing_toolkit.assistant.vocabulary.intents import Intent
from billing_toolkit.client.tool_result import ToolResult

RULES = KeywordClassifier()


class TestComplaintsAndPeople:
    @pytest.mark.parametrize(
        "message",
        [
            "los voy a denunciar ante el ente regulador",
            "mi abogado se va a comunicar con ustedes",
            "quiero poner un reclamo formal por el cobro doble",
            "esto va para CONATEL si no me resuelven",
            "voy a tomar acciones legales",
            "I want to file a formal complaint",
            "my lawyer will contact you",
            "I'll report you to the consumer protection office",
            "cuánto debo? igual pondré la denuncia en la Sundde",
            "ya pagué y me siguen cobrando, ref 0045127",
            "hay un cobro indebido en mi factura",
            "ya pague y me siguen llegando el cobro",
            "I paid and you keep charging me",
            "I already paid, why are you still charging me?",
        ],
    )
    def test_complaints_claims_and_threats_are_read(self, message: str) -> None:
        assert is_complaint(message) is not None

    @pytest.mark.parametrize(
        "message",
        [
            "¿cuánto debo?",
            "a mi juicio la factura está bien",  # "juicio" is an opinion, not a trial
            "tengo un regulador de voltaje y no prende el router",
            "how do I read my invoice?",
            "¿cuántas personas pueden usar el wifi a la vez?",
            "¿cuánto me cobraron este mes?",  # a question about a charge, not a dispute
            "¿me cobran la reconexión?",
            "how much did you charge me in november?",
            "me estan cobrando de mas este mes, por que?",  # a bill that went up: answered
            "I was double charged this month",
        ],
    )
    def test_billing_questions_are_not_complaints(self, message: str) -> None:
        assert is_complaint(message) is None

    @pytest.mark.parametrize(
        "message",
        [
            "cuánto debo? y luego me comunicas con un agente",
            "dime el saldo y después me pasas con alguien",
            "quiero hablar con un vendedor",
            "pásame con ventas porfa",
            "can I talk to sales?",
        ],
    )
    def test_a_person_asked_for_anywhere_in_the_message_is_read(self, message: str) -> None:
        assert asks_for_person(message) is not None

    def test_sales_requests_are_told_apart(self) -> None:
        assert asks_for_sales("pásame con ventas") and asks_for_sales("a salesperson please")
        assert not asks_for_sales("quiero hablar con un asesor")


class TestPeriods:
    @pytest.mark.parametrize(
        ("message", "month", "year", "back"),
        [
            ("pásame el recibo de julio", 7, None, None),
            ("la factura de setiembre", 9, None, None),
            ("la de otubre ya está paga?", 10, None, None),
            ("la factura de julio de 2025", 7, 2025, None),
            ("the July bill please", 7, None, None),
            ("my bill for May", 5, None, None),
            ("la del mes pasado ya está paga?", None, None, 1),
            ("el recibo del mes antepasado", None, None, 2),
            ("la de este mes", None, None, 0),
            ("last month's invoice", None, None, 1),
            ("la factura pasada cuánto fue?", None, None, 1),
            ("el recibo pasado", None, None, 1),
            ("la penúltima factura", None, None, 1),
        ],
    )
    def test_periods_are_read(
        self, message: str, month: int | None, year: int | None, back: int | None
    ) -> None:
        period = period_asked(message)
        assert period is not None
        assert (period.month, period.year, period.months_back) == (month, year, back)

    @pytest.mark.parametrize(
        "message",
        [
            "¿cuánto debo este mes?",  # a balance question
            "la factura vence el 21 de noviembre",  # a date, not a period
            "May I see my bill?",  # the verb, not the month
            "mis facturas",
        ],
    )
    def test_a_month_alone_is_not_a_period_request(self, message: str) -> None:
        assert period_asked(message) is None


class TestPaymentPeriods:
    @pytest.mark.parametrize(
        ("message", "month", "back"),
        [
            ("¿cuánto pagué en agosto?", 8, None),
            ("mi pago de septiembre", 9, None),
            ("mis pagos de octubre", 10, None),
            ("el pago del mes pasado", None, 1),
            ("what did I pay in August?", 8, None),
            ("my August payment", 8, None),
            ("abonamos en julio?", 7, None),
        ],
    )
    def test_a_month_by_a_payment_word_is_a_payment_period(
        self, message: str, month: int | None, back: int | None
    ) -> None:
        period = payment_period_asked(message)
        assert period is not None and (period.month, period.months_back) == (month, back)
        assert period_asked(message) is None  # not an invoice's period

    @pytest.mark.parametrize(
        "message",
        [
            "¿cuánto debo pagar en diciembre?",  # what is to be paid: the invoice's
            "pagué el 6 de julio",  # a date, not a month
            "how much do I pay in December?",
            "mi último pago",
        ],
    )
    def test_no_past_payment_by_a_month_is_no_payment_period(self, message: str) -> None:
        assert payment_period_asked(message) is None


def _payment(payment_id: str, received: str) -> dict[str, object]:
    return {"payment_id": payment_id, "received_at": f"{received}T12:00:00Z"}


PAID = [
    _payment("PAY-0000000004", "2026-10-19"),
    _payment("PAY-0000000003", "2026-09-20"),
    _payment("PAY-0000000002", "2026-09-02"),
    _payment("PAY-0000000001", "2025-08-18"),
]


class TestPaymentChoice:
    def test_a_month_is_the_one_payments_were_received_in_its_latest_year(self) -> None:
        found = payments_of_period(PAID, PeriodAsked("septiembre", month=9), None)
        assert [p["payment_id"] for p in found] == ["PAY-0000000003", "PAY-0000000002"]
        august = payments_of_period(PAID, PeriodAsked("agosto", month=8), None)
        assert [p["payment_id"] for p in august] == ["PAY-0000000001"]
        assert payments_of_period(PAID, PeriodAsked("julio", month=7), None) == []

    def test_a_year_or_a_relative_month_picks_exactly_that_month(self) -> None:
        assert payments_of_period(PAID, PeriodAsked("agosto 2026", month=8, year=2026), None) == []
        today = datetime(2026, 11, 10, tzinfo=UTC).date()
        last = payments_of_period(PAID, PeriodAsked("mes pasado", months_back=1), today)
        assert [p["payment_id"] for p in last] == ["PAY-0000000004"]
        assert payments_of_period(PAID, PeriodAsked("mes pasado", months_back=1), None) == []

    def test_the_one_before_is_the_next_listed_never_a_guess(self) -> None:
        assert [p["payment_id"] for p in payment_before(PAID, None)] == ["PAY-0000000003"]
        before = payment_before(PAID, "PAY-0000000002")
        assert [p["payment_id"] for p in before] == ["PAY-0000000001"]
        assert payment_before(PAID, "PAY-0000000001") == []  # the oldest listed
        assert payment_before(PAID, "PAY-0000009999") == []  # not theirs

    def test_the_months_paid_in_are_listed_oldest_first_once_each(self) -> None:
        assert months_paid(PAID, Language.SPANISH) == [
            "agosto de 2025",
            "septiembre de 2026",
            "octubre de 2026",
        ]


def _invoice(number: str, start: str, status: str = "paid") -> dict[str, object]:
    return {"invoice_number": number, "status": status, "billing_period": {"start": start}}


OWN = [
    _invoice("INV-2026-004748", "2026-11-06", "open"),
    _invoice("INV-2026-004676", "2026-10-06"),
    _invoice("INV-2025-003676", "2025-10-06"),
    _invoice("INV-2026-004456", "2026-07-06"),
]


class TestInvoiceChoice:
    def test_a_yearless_month_is_its_latest_occurrence(self) -> None:
        found = invoices_of_period(OWN, PeriodAsked("octubre", month=10), None)
        assert [i["invoice_number"] for i in found] == ["INV-2026-004676"]

    def test_a_year_picks_that_year(self) -> None:
        found = invoices_of_period(OWN, PeriodAsked("octubre 2025", month=10, year=2025), None)
        assert [i["invoice_number"] for i in found] == ["INV-2025-003676"]

    def test_last_month_counts_from_the_billing_systems_date(self) -> None:
        today = datetime(2026, 11, 10, tzinfo=UTC).date()
        found = invoices_of_period(OWN, PeriodAsked("mes pasado", months_back=1), today)
        assert [i["invoice_number"] for i in found] == ["INV-2026-004676"]
        assert months_before(datetime(2026, 1, 15).date(), 2) == (2025, 11)

    def test_without_the_billing_date_last_month_matches_nothing(self) -> None:
        assert invoices_of_period(OWN, PeriodAsked("mes pasado", months_back=1), None) == []

    def test_a_void_invoice_gives_way_to_its_reissue(self) -> None:
        reissued = [_invoice("INV-2026-004700", "2026-07-06", "void"), *OWN]
        found = invoices_of_period(reissued, PeriodAsked("julio", month=7), None)
        assert [i["invoice_number"] for i in found] == ["INV-2026-004456"]

    def test_the_periods_on_record_are_listed_oldest_first(self) -> None:
        assert periods_on_record(OWN[:2], Language.SPANISH) == [
            "octubre de 2026",
            "noviembre de 2026",
        ]
        assert periods_on_record(OWN[:1], Language.ENGLISH) == ["November 2026"]

    @pytest.mark.parametrize(
        ("message", "digits"),
        [
            ("la que termina en 4410", "4410"),
            ("invoice ending in 676", "676"),
            ("los últimos 4 dígitos son 4748", "4748"),
            ("termina en 12", None),  # two digits match too many invoices to mean one
            ("la factura 7875", "7875"),  # right after an invoice word: too short to be whole
            ("factura nro. 7875", "7875"),
            ("invoice #7875", "7875"),
            ("la de los números 8372", "8372"),
            ("la factura 2026", None),  # a year
            ("la factura 100,00", None),  # an amount
            ("la factura INV-2026-004410", None),  # a whole number: `text/identifiers.py`
        ],
    )
    def test_last_digits_are_read(self, message: str, digits: str | None) -> None:
        assert suffix_asked(message) == digits

    def test_last_digits_match_only_own_invoices_and_may_match_several(self) -> None:
        assert [i["invoice_number"] for i in invoices_ending_in(OWN, "676")] == [
            "INV-2026-004676",
            "INV-2025-003676",
        ]
        assert invoices_ending_in(OWN, "4410") == []


class TestReferents:
    @pytest.mark.parametrize(
        ("message", "pointer"),
        [
            ("¿y qué trae esa?", Pointer.THAT),
            ("what's in that one?", Pointer.THAT),
            ("¿y la anterior?", Pointer.PREVIOUS),
            ("¿y la factura anterior?", Pointer.PREVIOUS),
            ("was it paid?", Pointer.THAT),
            ("¿ya está paga?", Pointer.THAT),
            ("the previous one", Pointer.PREVIOUS),
            ("la otra", Pointer.OTHER),
            ("la segunda porfa", Pointer.SECOND),
            ("¿y ese pago a qué factura fue?", Pointer.PAYMENT),
            ("¿y el pago anterior?", Pointer.PREVIOUS_PAYMENT),
            ("and my previous payment?", Pointer.PREVIOUS_PAYMENT),
            ("¿con qué lo pagué?", Pointer.PAYMENT),
            ("¿y cómo lo pagamos?", Pointer.PAYMENT),
            ("what did I pay it with?", Pointer.PAYMENT),
            ("ya lo pagué", Pointer.THAT),  # the invoice shown is paid: its status answers
            ("¿cómo pagué la factura?", None),  # names what it asks about
            ("esa es mi cuenta", None),
            ("eso es todo, gracias", None),
        ],
    )
    def test_pointing_back_is_read(self, message: str, pointer: Pointer | None) -> None:
        assert pointer_in(message) == pointer

    def test_pointers_resolve_against_what_was_shown(self) -> None:
        own = ["INV-3", "INV-2", "INV-1"]
        assert resolve(Pointer.THAT, ["INV-2"], own) == ["INV-2"]
        assert resolve(Pointer.THAT, ["INV-3", "INV-2"], own) == ["INV-3", "INV-2"]  # ask
        assert resolve(Pointer.PREVIOUS, ["INV-2"], own) == ["INV-1"]
        assert resolve(Pointer.OTHER, ["INV-3", "INV-2"], own) == ["INV-2"]
        assert resolve(Pointer.OTHER, ["INV-3"], own) == []  # "la otra" of one: ask
        assert resolve(Pointer.SECOND, ["INV-3", "INV-2"], own) == ["INV-2"]
        assert resolve(Pointer.THAT, [], own) == []
        assert (
            resolve(Pointer.PREVIOUS, [], own) == own[1:2]
        )  # "la factura anterior": before the newest

    def test_referents_expire(self) -> None:
        now = datetime(2026, 11, 10, 13, 0, tzinfo=UTC)
        kept = Referents((Referent("invoice", "INV-1"),), now + timedelta(minutes=30))
        assert kept.of_kind("invoice", now) == ["INV-1"]
        assert kept.of_kind("invoice", now + timedelta(minutes=31)) == []

    def test_what_a_reply_showed_is_kept(self) -> None:
        results = [
            ToolResult("invoices", True, "…", {"invoices": [{"invoice_number": "INV-2"}]}),
            ToolResult("last_payment", True, "…", {"payment": {"payment_id": "PAY-1"}}),
            ToolResult("balance", False),
        ]
        assert shown_by(results) == (Referent("invoice", "INV-2"), Referent("payment", "PAY-1"))


class TestRouting:
    @pytest.mark.parametrize(
        ("message", "intent", "capability"),
        [
            ("no quiero darme de baja, solo dime cuánto debo", Intent.BALANCE, "balance"),
            ("I don't want to cancel my service, just my balance", Intent.BALANCE, "balance"),
            ("cuánto cuesta el plan fibra 300", Intent.POLICY, None),
            ("tengo un cambio de plan programado?", Intent.PLAN, "plan"),
            ("is my plan change scheduled?", Intent.PLAN, "plan"),
            ("cuántos días llevo de atraso?", Intent.BALANCE, "arrears"),
            ("¿cuánto es la mora si pago tarde?", Intent.POLICY, None),
            ("👍", Intent.THANKS, None),
            ("la que termina en 4748", Intent.INVOICE, "invoices"),
            ("quiero cancelar mi servicio", Intent.UNSUPPORTED, "cancel_service"),
            ("no puedo reportar mi pago por la app", Intent.PAYMENT_REPORT, "report_payment"),
            ("¿ya verificaron mi pago?", Intent.REPORT_STATUS, "latest_payment_report"),
            ("did you get my payment report?", Intent.REPORT_STATUS, "latest_payment_report"),
            ("¿a cómo está la tasa hoy?", Intent.EXCHANGE_RATE, "exchange_rate"),
            ("what's the rate today", Intent.EXCHANGE_RATE, "exchange_rate"),
            ("¿cuánto es mi deuda en bolívares?", Intent.DUE_IN_BOLIVARES, "exchange_rate"),
            ("how much is that in bolivars", Intent.DUE_IN_BOLIVARES, "exchange_rate"),
            ("¿qué tasa de cambio usan para facturar?", Intent.POLICY, None),
            ("¿puedo pagar en bolívares?", Intent.POLICY, None),
            ("¿cuál fue mi último pago?", Intent.LAST_PAYMENT, "last_payment"),
        ],
    )
    def test_answerable_questions_are_not_hand_overs(
        self, message: str, intent: Intent, capability: str | None
    ) -> None:
        routed = route(message, classifier=RULES)
        assert (routed.intent, routed.capability) == (intent, capability)

    def test_a_pointer_needs_something_shown_or_an_invoice_word(self) -> None:
        assert route("¿y qué trae esa?", classifier=RULES).intent is Intent.POLICY
        assert (
            route("¿y qué trae esa?", classifier=RULES, pointing=frozenset({"invoice"})).intent
            is Intent.INVOICE
        )
        assert route("¿y esa factura?", classifier=RULES).intent is Intent.INVOICE

    def test_another_month_as_a_follow_up_asks_the_same_of_what_was_shown(self) -> None:
        payment = route("¿y en agosto?", classifier=RULES, pointing=frozenset({"payment"}))
        assert payment.capability == "payments" and payment.params["period"].month == 8
        invoice = route("and in june?", classifier=RULES, pointing=frozenset({"invoice"}))
        assert invoice.capability == "invoices" and invoice.params["period"].month == 6
        # nothing shown, or a long message: no follow-up to read
        assert route("¿y en agosto?", classifier=RULES).capability not in ("payments", "invoices")
        assert follow_up_period("y en agosto qué pasó con todo lo que te conté") is None

    def test_the_previous_one_after_a_payment_alone_is_the_payment_before(self) -> None:
        after_payment = route("¿y el anterior?", classifier=RULES, pointing=frozenset({"payment"}))
        assert (after_payment.capability, after_payment.params) == ("payments", {"before": True})
        both = route(
            "¿y el anterior?", classifier=RULES, pointing=frozenset({"payment", "invoice"})
        )
        assert both.capability == "invoices"  # an invoice shown: "la anterior" is an invoice

    @pytest.mark.parametrize(
        ("message", "clauses"),
        [
            ("1) saldo 2) cuánto es la mora", ["saldo", "cuánto es la mora"]),
            ("a) cuanto debo b) cuando vence", ["cuanto debo", "cuando vence"]),
            ("cuánto debo, cuándo vence y cómo pago", ["cuánto debo", "cuándo vence", "cómo pago"]),
            (
                "now that it is cancelled, do I owe anything?",
                ["now that it is cancelled, do I owe anything"],
            ),
        ],
    )
    def test_lists_and_enumerations_are_split(self, message: str, clauses: list[str]) -> None:
        assert split_clauses(message) == clauses

    def test_every_part_is_kept_even_one_the_model_is_unsure_of(self) -> None:
        parts = route_parts("cuanto debo y cual es el horario de la oficina", classifier=RULES)
        assert [p.route.intent for p in parts] == [Intent.BALANCE, Intent.POLICY]

    def test_the_rate_of_the_day_is_a_part_of_its_own(self) -> None:
        parts = route_parts("cuanto debo y cual es la tasa del dia de hoy", classifier=RULES)
        assert [p.route.intent for p in parts] == [Intent.BALANCE, Intent.EXCHANGE_RATE]

    def test_a_denied_action_is_not_a_part(self) -> None:
        parts = route_parts("no quiero darme de baja, solo dime cuánto debo", classifier=RULES)
        assert [p.route.intent for p in parts] == [Intent.BALANCE]


class TestSentences:
    @pytest.mark.parametrize(
        ("text", "sentences"),
        [
            (
                "Abrimos de 8:00 a. m. a 5:00 p. m. y sábados. Luego cerramos.",
                ["Abrimos de 8:00 a. m. a 5:00 p. m. y sábados.", "Luego cerramos."],
            ),
            (
                "El equipo cuesta USD 45,00 o Bs. 1.640,00. Se factura una vez.",
                ["El equipo cuesta USD 45,00 o Bs. 1.640,00.", "Se factura una vez."],
            ),
            (
                "Atiende el Sr. Pérez en la Av. Libertador No. 12. Pasa por caja.",
                ["Atiende el Sr. Pérez en la Av. Libertador No. 12.", "Pasa por caja."],
            ),
            (
                "Usa estos datos: Banco X, cuenta corriente.",
                ["Usa estos datos: Banco X, cuenta corriente."],
            ),
            (
                "It costs USD 45.00. Then J. Smith signs. Done!",
                ["It costs USD 45.00.", "Then J. Smith signs.", "Done!"],
            ),
            ("Hola. ¿Cómo pagas? Con Zelle.", ["Hola.", "¿Cómo pagas?", "Con Zelle."]),
        ],
    )
    def test_a_sentence_never_ends_at_an_abbreviation_or_a_colon(
        self, text: str, sentences: list[str]
    ) -> None:
        assert split_sentences(text) == sentences


@pytest.mark.parametrize(
    ("topic", "language", "words"),
    [
        ("métodos de pago|payment methods", Language.SPANISH, "métodos de pago"),
        ("métodos de pago|payment methods", Language.ENGLISH, "payment methods"),
        ("una sola lengua", Language.ENGLISH, "una sola lengua"),  # no English given
    ],
)
def test_a_topic_adds_only_the_replys_language_to_the_query(
    topic: str, language: Language, words: str
) -> None:
    assert topic_words(topic, language) == words
