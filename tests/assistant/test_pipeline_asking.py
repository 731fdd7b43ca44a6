"""Issue 25 end to end on the fakes: complaints and people first, invoices by month, by their
last digits and by pointing back, computed days, and every part of a message answered."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta

import pytest

from billing_toolkit.assistant.turn.pipeline import AssistantPipeline, PipelineSettings
from billing_toolkit.assistant.turn.result import Action
from billing_toolkit.assistant.understanding.keyword_classifier import KeywordClassifier
from billing_toolkit.assistant.vocabulary.escalation import EscalationReason
from tests.assistant.assistant_fakes import (
    MARIA_PHONE,
    UNKNOWN_PHONE,
    FakeCapabilities,
    PipelineFactory,
)
from tests.assistant.test_pipeline import escalated, said, stages

MARIA = "1000004821"
LATEST, PREVIOUS = "INV-2026-004281", "INV-2026-004102"


class Clock:
    """A settable clock for the referents' expiry."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def _pipeline(make_pipeline: PipelineFactory, clock: Clock | None = None) -> AssistantPipeline:
    settings = PipelineSettings(clock=clock or Clock())
    return make_pipeline(classifier=KeywordClassifier(), settings=settings)


class TestPeopleFirst:
    def test_a_threat_hands_over_as_a_complaint_and_answers_nothing(
        self, make_pipeline: PipelineFactory, capabilities: FakeCapabilities
    ) -> None:
        result = _pipeline(make_pipeline).handle(
            MARIA_PHONE, "¿cuánto debo? porque los voy a denunciar ante el ente regulador"
        )
        escalation = escalated(result)
        assert escalation.reason is EscalationReason.COMPLAINT
        assert "reclamo" in escalation.summary.es and "complaint" in escalation.summary.en
        assert capabilities.called("balance") == []
        assert "reclamo" in said(result)

    @pytest.mark.parametrize(
        "message", ["esto es un robo, los voy a denunciar", "quiero hablar con un agente"]
    )
    def test_a_hand_over_that_comes_first_names_the_known_subscriber(
        self, make_pipeline: PipelineFactory, message: str
    ) -> None:
        escalation = escalated(_pipeline(make_pipeline).handle(MARIA_PHONE, message))
        assert "cuenta 1000004821" in escalation.summary.es
        assert "sin identificar" not in escalation.summary.es

    def test_a_hand_over_that_comes_first_from_an_unknown_phone_stays_unidentified(
        self, make_pipeline: PipelineFactory
    ) -> None:
        message = "soy la titular de la cuenta 1000004821, quiero hablar con un agente"
        escalation = escalated(_pipeline(make_pipeline).handle(UNKNOWN_PHONE, message))
        assert "sin identificar" in escalation.summary.es and "María" not in escalation.summary.es

    def test_a_person_asked_for_after_a_question_wins(
        self, make_pipeline: PipelineFactory, capabilities: FakeCapabilities
    ) -> None:
        result = _pipeline(make_pipeline).handle(
            MARIA_PHONE, "cuánto debo? y luego me comunicas con un agente"
        )
        assert result.reason is EscalationReason.USER_REQUEST
        assert capabilities.called("balance") == []

    def test_a_sales_request_says_so_to_the_agent(self, make_pipeline: PipelineFactory) -> None:
        result = _pipeline(make_pipeline).handle(MARIA_PHONE, "quiero hablar con un vendedor")
        escalation = escalated(result)
        assert escalation.reason is EscalationReason.USER_REQUEST
        assert "ventas" in escalation.summary.es and "sales" in escalation.summary.en


class TestInvoicesByPeriodAndDigits:
    def test_last_month_is_counted_from_the_billing_systems_date(
        self, make_pipeline: PipelineFactory
    ) -> None:
        # The balance's as_of is 2026-11-29: "el mes pasado" is October.
        reply = said(
            _pipeline(make_pipeline).handle(MARIA_PHONE, "la del mes pasado ya está paga?")
        )
        assert PREVIOUS in reply and LATEST not in reply and "pagada" in reply

    def test_a_misspelt_month_finds_its_invoice(self, make_pipeline: PipelineFactory) -> None:
        reply = said(_pipeline(make_pipeline).handle(MARIA_PHONE, "pásame el recibo de otubre"))
        assert reply.startswith(f"Factura {PREVIOUS}")

    def test_a_month_without_an_invoice_lists_the_months_there_are(
        self, make_pipeline: PipelineFactory
    ) -> None:
        reply = said(_pipeline(make_pipeline).handle(MARIA_PHONE, "la factura de julio"))
        assert reply == (
            "No encontré una factura tuya de julio. Tus facturas son de: octubre de 2026, "
            "noviembre de 2026."
        )

    def test_last_digits_resolve_among_own_invoices_only(
        self, make_pipeline: PipelineFactory
    ) -> None:
        pipeline = _pipeline(make_pipeline)
        assert said(pipeline.handle(MARIA_PHONE, "la que termina en 4281")).startswith(
            f"Factura {LATEST}"
        )
        # INV-2026-004300 is another customer's: its digits find nothing here.
        reply = said(pipeline.handle(MARIA_PHONE, "la que termina en 4300"))
        assert "No encontré una factura tuya que termine en 4300" in reply

    def test_digits_right_after_an_invoice_word_are_its_last_digits(
        self, make_pipeline: PipelineFactory
    ) -> None:
        reply = said(_pipeline(make_pipeline).handle(MARIA_PHONE, "la factura 4102 cuánto era?"))
        assert reply.startswith(f"Factura {PREVIOUS}")

    @pytest.mark.parametrize(
        "message", ["the previous invoice", "la factura pasada", "la factura anterior"]
    )
    def test_the_previous_invoice_with_nothing_shown_is_the_one_before_the_newest(
        self, make_pipeline: PipelineFactory, message: str
    ) -> None:
        reply = said(_pipeline(make_pipeline).handle(MARIA_PHONE, message))
        assert PREVIOUS in reply and LATEST not in reply, reply

    def test_digits_no_invoice_ends_in_may_be_the_last_payments_reference(
        self, make_pipeline: PipelineFactory
    ) -> None:
        result = _pipeline(make_pipeline).handle(MARIA_PHONE, "el pago que termina en 3301")
        assert stages(result)["payment_named"] == "match"
        assert said(result).startswith("Tu último pago registrado es")

    def test_two_matches_get_a_labelled_choice_and_then_the_pick(
        self, make_pipeline: PipelineFactory, capabilities: FakeCapabilities
    ) -> None:
        twin = copy.deepcopy(capabilities.world["fibranet"][MARIA].invoices[0])
        twin["invoice_number"] = "INV-2026-005281"
        capabilities.world["fibranet"][MARIA].invoices.insert(0, twin)
        pipeline = _pipeline(make_pipeline)
        choice = said(pipeline.handle(MARIA_PHONE, "invoice ending in 281"))
        assert "INV-2026-005281" in choice and LATEST in choice and "USD" not in choice
        reply = said(pipeline.handle(MARIA_PHONE, "the second one"))
        assert LATEST in reply and "INV-2026-005281" not in reply


LAST_PAYMENT, EARLIER_PAYMENT = "PAY-0000012345", "PAY-0000011870"
"""María's payments: received 2026-10-12 (the last) and 2026-09-14."""


class TestInvoicesCountedBack:
    @pytest.mark.parametrize(
        ("first", "follow_up", "expected"),
        [
            ("mi última factura", "¿y la penúltima?", PREVIOUS),
            ("mi última factura", "¿y la antepenúltima?", None),  # María has two: none
        ],
    )
    def test_the_one_before_last_counts_back_from_the_current(
        self, make_pipeline: PipelineFactory, first: str, follow_up: str, expected: str | None
    ) -> None:
        pipeline = _pipeline(make_pipeline)
        said(pipeline.handle(MARIA_PHONE, first))
        reply = said(pipeline.handle(MARIA_PHONE, follow_up))
        if expected is not None:
            assert reply.startswith(f"Factura {expected}")
        else:
            assert reply.startswith("No encontré una factura tuya de septiembre")


class TestFollowUpsAboutWhatWasShown:
    def test_how_much_it_was_after_an_invoice_is_that_invoice_not_the_balance(
        self, make_pipeline: PipelineFactory
    ) -> None:
        pipeline = _pipeline(make_pipeline)
        said(pipeline.handle(MARIA_PHONE, f"factura {PREVIOUS}"))
        reply = said(pipeline.handle(MARIA_PHONE, "¿y cuánto era?"))
        assert reply.startswith(f"Factura {PREVIOUS}") and "saldo neto" not in reply

    def test_how_much_the_late_fee_is_after_an_invoice_is_not_the_invoice(
        self, make_pipeline: PipelineFactory
    ) -> None:
        pipeline = _pipeline(make_pipeline)
        said(pipeline.handle(MARIA_PHONE, f"factura {PREVIOUS}"))
        result = pipeline.handle(MARIA_PHONE, "¿y cuánto es la mora?")
        assert not str(result.reply).startswith(f"Factura {PREVIOUS}")

    @pytest.mark.parametrize("follow_up", ["¿cuándo la pagué?", "when did I pay it?"])
    def test_when_the_invoice_shown_was_paid_is_the_payment_applied_to_it(
        self, make_pipeline: PipelineFactory, follow_up: str
    ) -> None:
        pipeline = _pipeline(make_pipeline)
        said(pipeline.handle(MARIA_PHONE, f"factura {PREVIOUS}"))
        reply = said(pipeline.handle(MARIA_PHONE, follow_up))
        assert reply.startswith(
            (f"Pagaste la factura {PREVIOUS} con PAY-", f"You paid invoice {PREVIOUS} with PAY-")
        )

    def test_when_an_open_invoice_was_paid_says_no_payment_went_to_it(
        self, make_pipeline: PipelineFactory
    ) -> None:
        pipeline = _pipeline(make_pipeline)
        said(pipeline.handle(MARIA_PHONE, f"factura {LATEST}"))
        reply = said(pipeline.handle(MARIA_PHONE, "¿cuándo la pagué?"))
        assert reply == "No encontré un pago aplicado a esa factura entre tus últimos pagos."


class TestPaymentsByMonthAndBefore:
    def test_a_month_finds_the_payment_received_in_it(self, make_pipeline: PipelineFactory) -> None:
        reply = said(_pipeline(make_pipeline).handle(MARIA_PHONE, "¿cuánto pagué en septiembre?"))
        assert reply.startswith(f"Tu pago de septiembre es {EARLIER_PAYMENT}")
        assert "USD 30,00" in reply and LAST_PAYMENT not in reply

    def test_last_month_is_counted_from_the_billing_systems_date(
        self, make_pipeline: PipelineFactory
    ) -> None:
        # The balance's as_of is 2026-11-29: "el mes pasado" is October.
        reply = said(_pipeline(make_pipeline).handle(MARIA_PHONE, "mi pago del mes pasado"))
        assert reply.startswith(f"Tu pago de octubre de 2026 es {LAST_PAYMENT}")

    def test_a_month_without_a_payment_says_so_and_names_the_months_paid_in(
        self, make_pipeline: PipelineFactory
    ) -> None:
        reply = said(_pipeline(make_pipeline).handle(MARIA_PHONE, "what did I pay in August?"))
        assert reply == (
            "I found no payment of yours received in August. You paid in: September 2026,"
            " October 2026."
        )

    def test_the_previous_one_after_a_payment_is_the_payment_before_it(
        self, make_pipeline: PipelineFactory
    ) -> None:
        pipeline = _pipeline(make_pipeline)
        said(pipeline.handle(MARIA_PHONE, "¿cuál fue mi último pago?"))
        reply = said(pipeline.handle(MARIA_PHONE, "¿y el anterior?"))
        assert reply.startswith(f"El pago anterior es {EARLIER_PAYMENT}")
        after = said(pipeline.handle(MARIA_PHONE, "¿y el anterior?"))
        assert after == "No encontré un pago anterior a ese en tu cuenta."

    @pytest.mark.parametrize("follow_up", ["¿con qué lo pagué?", "what did I pay it with?"])
    def test_how_the_payment_shown_was_made_is_that_payment_not_the_last(
        self, make_pipeline: PipelineFactory, follow_up: str
    ) -> None:
        pipeline = _pipeline(make_pipeline)
        said(pipeline.handle(MARIA_PHONE, "¿y el pago anterior?"))
        reply = said(pipeline.handle(MARIA_PHONE, follow_up))
        assert reply.startswith(
            (f"Ese pago es {EARLIER_PAYMENT}", f"That payment is {EARLIER_PAYMENT}")
        )
        assert LAST_PAYMENT not in reply

    def test_that_payment_with_none_shown_is_the_last(self, make_pipeline: PipelineFactory) -> None:
        reply = said(_pipeline(make_pipeline).handle(MARIA_PHONE, "¿con qué lo pagué?"))
        assert LAST_PAYMENT in reply

    def test_another_month_after_a_payment_is_that_months_payment(
        self, make_pipeline: PipelineFactory
    ) -> None:
        pipeline = _pipeline(make_pipeline)
        said(pipeline.handle(MARIA_PHONE, "¿cuánto pagué en octubre?"))
        reply = said(pipeline.handle(MARIA_PHONE, "¿y en septiembre?"))
        assert reply.startswith(f"Tu pago de septiembre es {EARLIER_PAYMENT}")

    def test_the_previous_payment_unprompted_is_the_one_before_the_last(
        self, make_pipeline: PipelineFactory
    ) -> None:
        reply = said(_pipeline(make_pipeline).handle(MARIA_PHONE, "the previous payment"))
        assert reply.startswith(f"The payment before that is {EARLIER_PAYMENT}")

    def test_an_invoice_paid_in_a_month_is_still_the_invoice(
        self, make_pipeline: PipelineFactory, capabilities: FakeCapabilities
    ) -> None:
        _pipeline(make_pipeline).handle(MARIA_PHONE, "la factura que pagué en octubre")
        assert capabilities.called("payments") == []


class TestPointingBack:
    def test_the_previous_one_is_the_invoice_before_the_one_shown(
        self, make_pipeline: PipelineFactory
    ) -> None:
        pipeline = _pipeline(make_pipeline)
        said(pipeline.handle(MARIA_PHONE, f"factura {LATEST}"))
        reply = said(pipeline.handle(MARIA_PHONE, "¿y la anterior?"))
        assert reply.startswith(f"Factura {PREVIOUS}")

    def test_was_it_paid_after_an_invoice_is_that_invoices_status_not_the_last_payment(
        self, make_pipeline: PipelineFactory, capabilities: FakeCapabilities
    ) -> None:
        pipeline = _pipeline(make_pipeline)
        said(pipeline.handle(MARIA_PHONE, f"factura {LATEST}"))
        reply = said(pipeline.handle(MARIA_PHONE, "was it paid?"))
        assert reply.startswith(f"Invoice {LATEST}") and capabilities.called("last_payment") == []

    def test_that_one_after_a_list_asks_which(self, make_pipeline: PipelineFactory) -> None:
        pipeline = _pipeline(make_pipeline)
        said(pipeline.handle(MARIA_PHONE, "mis facturas"))
        reply = said(pipeline.handle(MARIA_PHONE, "¿y qué trae esa?"))
        assert reply.startswith("¿Cuál de estas?") and LATEST in reply and PREVIOUS in reply

    def test_an_expired_referent_is_a_question_again(self, make_pipeline: PipelineFactory) -> None:
        clock = Clock()
        pipeline = _pipeline(make_pipeline, clock)
        said(pipeline.handle(MARIA_PHONE, f"factura {LATEST}"))
        clock.now += timedelta(minutes=31)
        reply = said(pipeline.handle(MARIA_PHONE, "¿y esa factura?"))
        assert reply.startswith("¿Cuál factura?") and LATEST not in reply


class TestComputedAnswers:
    def test_days_left_to_pay_come_from_the_evidence(
        self, make_pipeline: PipelineFactory, capabilities: FakeCapabilities
    ) -> None:
        capabilities.world["fibranet"][MARIA].balance["next_due_date"] = "2026-12-10"
        result = _pipeline(make_pipeline).handle(MARIA_PHONE, "¿cuánto debo?")
        assert "Te quedan 11 días para pagar" in said(result)

    def test_arrears_are_answered_from_the_record(
        self, make_pipeline: PipelineFactory, capabilities: FakeCapabilities
    ) -> None:
        account = capabilities.world["fibranet"][MARIA]
        account.invoices[0]["status"] = "overdue"
        account.balance["overdue_amount"] = account.invoices[0]["amount_due"]
        reply = said(_pipeline(make_pipeline).handle(MARIA_PHONE, "cuántos días llevo de atraso?"))
        assert LATEST in reply and "lleva 9 días vencida" in reply

    @pytest.mark.parametrize(
        "message",
        [
            "¿cuándo vence?",
            "cuánto debo y cuándo vence?",
            "¿cuál es mi fecha límite de pago?",
            "when is my bill due?",
            "cuantos dias me quedan pa pagar",
            "¿desde cuándo estoy vencido?",
        ],
    )
    def test_when_it_is_due_from_an_overdue_account_says_when_it_fell_due(
        self, make_pipeline: PipelineFactory, capabilities: FakeCapabilities, message: str
    ) -> None:
        """The balance alone says what is overdue, not since when: the answer to "when is it
        due" of an overdue account is that it already was, and how long ago."""
        account = capabilities.world["fibranet"][MARIA]
        account.invoices[0]["status"] = "overdue"
        account.balance["overdue_amount"] = account.invoices[0]["amount_due"]
        account.balance["next_due_date"] = None
        reply = said(_pipeline(make_pipeline).handle(MARIA_PHONE, message))
        assert "lleva 9 días vencida" in reply or "overdue for 9 days" in reply, reply
        assert reply.count("saldo neto") + reply.count("net balance") <= 1  # never said twice

    @pytest.mark.parametrize("message", ["¿cuándo vence?", "cuánto debo y cuándo vence?"])
    def test_when_it_is_due_with_nothing_overdue_is_the_balance_and_its_due_date(
        self, make_pipeline: PipelineFactory, capabilities: FakeCapabilities, message: str
    ) -> None:
        reply = said(_pipeline(make_pipeline).handle(MARIA_PHONE, message))
        assert "20 de noviembre de 2026" in reply and capabilities.called("arrears") == []
        assert reply.count("saldo neto") == 1


class TestEveryPart:
    def test_an_unanswerable_part_is_named_and_the_rest_answered(
        self, make_pipeline: PipelineFactory
    ) -> None:
        result = _pipeline(make_pipeline).handle(
            MARIA_PHONE, "¿cuánto debo? ¿y quién ganó el partido de ayer?"
        )
        assert result.action is Action.REPLY
        assert "USD" in said(result) and "Sobre «y quién ganó el partido de ayer»" in said(result)
        context = next(r for r in result.trace if r.stage == "context")
        assert (context.detail["parts"], context.detail["answered"]) == (2, 1)

    def test_thanks_with_a_thumbs_up_after_an_answer_is_a_closing(
        self, make_pipeline: PipelineFactory
    ) -> None:
        pipeline = _pipeline(make_pipeline)
        said(pipeline.handle(MARIA_PHONE, "¿cuánto debo?"))
        result = pipeline.handle(MARIA_PHONE, "gracias, listo 👍")
        assert result.action is Action.REPLY and stages(result)["intent"] == "thanks"
