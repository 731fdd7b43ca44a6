"""Issue 25 read a second time with messages nobody had written before (WhatsApp wording,
typos, no accents): each case here got the wrong kind of reply before its rule was fixed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from billing_toolkit.assistant.retrieval import HybridRetriever, open_retriever
from billing_toolkit.assistant.retrieval.relevance import ContextFloor
from billing_toolkit.assistant.text.language import Language, detect_language
from billing_toolkit.assistant.turn.intents import route
from billing_toolkit.assistant.understanding.complaint import is_complaint
from billing_toolkit.assistant.understanding.keyword_classifier import KeywordClassifier
from billing_toolkit.assistant.understanding.partial_identifiers import suffix_asked
from billing_toolkit.assistant.understanding.periods import period_asked
from billing_toolkit.assistant.understanding.person_request import (
    asks_for_person,
    asks_for_sales,
)
from billing_toolkit.assistant.vocabulary.intents import Intent
from tests.assistant.assistant_fakes import MARIA_PHONE, PipelineFactory
from tests.assistant.test_pipeline import said

RULES = KeywordClassifier()
LATEST = "INV-2026-004281"


class TestShortEnglishFollowUps:
    @pytest.mark.parametrize(
        "text", ["what's in that one?", "and the other one?", "is that one paid?", "show it"]
    )
    def test_a_short_english_follow_up_is_english_whatever_came_before(self, text: str) -> None:
        assert detect_language(text, fallback=Language.SPANISH) is Language.ENGLISH

    @pytest.mark.parametrize("text", ["y esa?", "ok dale", "la anterior", "¿y qué trae esa?"])
    def test_a_short_spanish_follow_up_is_not_read_as_english(self, text: str) -> None:
        assert detect_language(text, fallback=Language.SPANISH) is Language.SPANISH

    def test_that_one_after_an_english_exchange_is_answered_in_english(
        self, make_pipeline: PipelineFactory
    ) -> None:
        pipeline = make_pipeline(classifier=RULES)
        said(pipeline.handle(MARIA_PHONE, LATEST))  # no language signal: the default
        reply = said(pipeline.handle(MARIA_PHONE, "what's in that one?"))
        assert reply.startswith(f"Invoice {LATEST}")


class TestAnswerableNotGeneric:
    @pytest.mark.parametrize(
        "message",
        [
            "cuantos dias me quedan pa pagar",
            "cuanto tiempo tengo para pagar la factura?",
            "hasta cuando tengo pa pagar 🙏",
            "how many days do I have to pay?",
        ],
    )
    def test_days_left_to_pay_is_the_balance_with_its_due_date(self, message: str) -> None:
        routed = route(message, classifier=RULES)
        assert (routed.intent, routed.capability) == (Intent.BALANCE, "due_date")

    @pytest.mark.parametrize(
        "message", ["cuanto es la mora q tengo", "y el recargo que me cobraron?"]
    )
    def test_the_arrears_they_have_are_computed_not_quoted(self, message: str) -> None:
        assert route(message, classifier=RULES).capability == "arrears"

    def test_a_late_fee_if_they_pay_late_is_still_the_policy(self) -> None:
        assert route("cuanto es la mora si pago tarde?", classifier=RULES).capability is None

    @pytest.mark.parametrize(
        "message", ["ya quedo programado mi cambio de plan?", "mi cambio de plan ya esta listo?"]
    )
    def test_whether_a_plan_change_is_scheduled_reads_the_subscription(self, message: str) -> None:
        routed = route(message, classifier=RULES)
        assert (routed.intent, routed.capability) == (Intent.PLAN, "plan")

    @pytest.mark.parametrize(
        "message",
        ["how much is the fastest plan?", "cuanto cuesta el fibra 300", "precio del de 100 megas"],
    )
    def test_a_plan_price_asks_the_plans_table(self, message: str) -> None:
        routed = route(message, classifier=RULES)
        assert routed.intent is Intent.POLICY and routed.topic is not None
        assert "precio mensual" in routed.topic and "monthly price" in routed.topic

    def test_a_denied_plan_change_keeps_the_plan_it_was_about(self) -> None:
        routed = route("no voy a cambiar de plan, solo quiero saber cual tengo", classifier=RULES)
        assert routed.intent is not Intent.UNSUPPORTED
        assert route("no voy a cambiar de plan", classifier=RULES).intent is Intent.POLICY


class TestPeriodsInEnglish:
    @pytest.mark.parametrize(
        ("message", "months_back", "month"),
        [
            ("what about the one from last month?", 1, None),
            ("the one from july please", None, 7),
            ("and the one for october?", None, 10),
        ],
    )
    def test_the_one_from_a_month_is_that_months_invoice(
        self, message: str, months_back: int | None, month: int | None
    ) -> None:
        period = period_asked(message)
        assert period is not None
        assert (period.months_back, period.month) == (months_back, month)

    def test_a_month_alone_is_still_not_a_period(self) -> None:
        assert period_asked("one from july") is None


class TestAccusationsAreComplaints:
    @pytest.mark.parametrize(
        "message",
        [
            "esto es un robo, son unos estafadores 😡",
            "ladrones!! me cobraron doble",
            "this is a scam, you charged me twice",
        ],
    )
    def test_an_accusation_hands_over_as_a_complaint(self, message: str) -> None:
        assert is_complaint(message) is not None

    @pytest.mark.parametrize(
        "message",
        [
            "estoy harto de ustedes",
            "ya estoy cansada de esperar que me acrediten el pago",
            "pésimo servicio, llevo 3 días sin internet",
            "qué mal servicio 😤",
            "nadie me responde, qué falta de respeto",
            "no es justo que me cobren mora si pagué a tiempo",
            "estoy muy molesto con el cobro de este mes",
            "voy a cambiarme de proveedor",
            "me cambio a otra compañía si no me resuelven",
            "this is unacceptable",
            "worst service ever",
            "I'm really frustrated with my bill",
            "we're fed up with the outages",
            "I will switch to another provider",
        ],
    )
    def test_anger_said_outright_or_leaving_hands_over_as_a_complaint(self, message: str) -> None:
        assert is_complaint(message) is not None

    @pytest.mark.parametrize(
        "message",
        [
            "me robaron el router, que hago?",
            "cuanto debo?",
            "el servicio está muy lento",
            "la atención estuvo muy bien, gracias",
            "no está mal el plan",
            "is it fair to ask when my bill is due?",
            "I'm not angry, just asking my balance",
            "quiero cambiarme de plan",
            "the service is slow today",
        ],
    )
    def test_clean_questions_are_not_complaints(self, message: str) -> None:
        assert is_complaint(message) is None


@pytest.fixture(scope="module")
def kb() -> Iterator[HybridRetriever]:
    with open_retriever() as retriever:
        yield retriever


@pytest.mark.parametrize(
    ("question", "document"),
    [
        ("¿a qué hora atienden?", "es/atencion-e-identidad.md"),
        ("buenas, a q hora abren ustedes?", "es/atencion-e-identidad.md"),
        ("what are your opening hours?", "en/support-and-identity.md"),
        ("what time do you open?", "en/support-and-identity.md"),
    ],
)
def test_the_hours_question_passes_the_context_floor(
    kb: HybridRetriever, question: str, document: str
) -> None:
    """It handed over NO_CONTEXT: the hours line said "las 24 horas" and "de 7:00 a. m. a 9:00
    p. m." but no word a subscriber asks the hours with. The floor itself is unchanged."""
    kept = [c.chunk_id for c in kb.search(question) if ContextFloor().admits(c)]
    assert any(chunk_id.startswith(document) for chunk_id in kept)


class TestMoreWaysOfNamingAnInvoice:
    @pytest.mark.parametrize(
        ("message", "month"),
        [("bill for sept pls", 9), ("la de oct", 10), ("factura de dic", 12), ("jul invoice", 7)],
    )
    def test_an_abbreviated_month_next_to_an_invoice_word_is_a_period(
        self, message: str, month: int
    ) -> None:
        period = period_asked(message)
        assert period is not None and period.month == month

    @pytest.mark.parametrize(
        "message", ["el recibo del mar", "la factura que pague hace dos dias ago", "el set"]
    )
    def test_an_abbreviation_that_is_a_word_is_not_a_month(self, message: str) -> None:
        assert period_asked(message) is None

    @pytest.mark.parametrize("message", ["the one ending 8372", "it ends 8372, is it paid?"])
    def test_ending_without_in_still_quotes_the_last_digits(self, message: str) -> None:
        assert suffix_asked(message) == "8372"

    def test_the_end_of_a_year_is_not_a_suffix(self) -> None:
        assert suffix_asked("at the end 2026") is None


class TestWantingToBuyIsSales:
    @pytest.mark.parametrize(
        "message",
        [
            "quiero contratar internet para mi negocio",
            "necesito contratar el servicio en otra casa",
            "como hago para contratar fibra",
            "I would like to sign up for a new connection",
        ],
    )
    def test_a_wish_to_buy_asks_for_sales(self, message: str) -> None:
        assert asks_for_person(message) is not None and asks_for_sales(message)

    def test_the_price_of_buying_is_a_question_not_a_request(self) -> None:
        assert asks_for_person("cuanto cuesta contratar el plan de 300?") is None
