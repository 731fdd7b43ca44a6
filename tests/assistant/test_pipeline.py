"""One turn end to end, against fake capabilities, a fake retriever and a real SQLite store."""

from __future__ import annotations

import json

import pytest

from billing_toolkit.assistant.narrator import Narration, NarrationError, NarrationRequest
from billing_toolkit.assistant.store import SqlConversationStore
from billing_toolkit.assistant.store.model import ConversationState
from billing_toolkit.assistant.turn.pipeline import AssistantPipeline, PipelineSettings
from billing_toolkit.assistant.turn.result import Action, TurnResult
from billing_toolkit.assistant.understanding.keyword_classifier import KeywordClassifier
from billing_toolkit.assistant.vocabulary.escalation import Escalation, EscalationReason
from tests.assistant.assistant_fakes import (
    ANA_PHONE,
    JOSE_PHONE,
    MARIA_PHONE,
    TENANT,
    UNKNOWN_PHONE,
    FakeCapabilities,
    FakeRetriever,
    PipelineFactory,
)


def stages(result: TurnResult) -> dict[str, str]:
    return {record.stage: record.decision for record in result.trace}


def said(result: TurnResult) -> str:
    """The reply the turn sends; a turn that sends none fails here, by name."""
    assert result.reply is not None, f"no reply: {result.action}"
    return result.reply


def escalated(result: TurnResult) -> Escalation:
    """The turn's hand-off; a turn that did not escalate fails here, by name."""
    assert result.escalation is not None, f"no escalation: {result.action}"
    return result.escalation


class ScriptedNarrator:
    """A narrator that says exactly what a test tells it to (a misbehaving model)."""

    def __init__(self, reply: str, used: tuple[str, ...] = ()) -> None:
        self.reply, self.used = reply, used
        self.requests: list[NarrationRequest] = []

    def narrate(self, request: NarrationRequest) -> Narration:
        self.requests.append(request)
        return Narration(self.reply, self.used)


class TestGroundedAnswers:
    def test_balance_in_spanish_states_the_api_figures_in_es_ve_form(
        self, pipeline: AssistantPipeline
    ) -> None:
        result = pipeline.handle(MARIA_PHONE, "¿Cuál es mi saldo?")
        assert result.action is Action.REPLY
        assert "USD 38,28" in said(result)
        assert "20 de noviembre de 2026" in said(result)
        assert stages(result)["grounding"] == "grounded"
        assert stages(result)["send"] == "reply"

    def test_an_english_question_gets_an_english_answer(self, pipeline: AssistantPipeline) -> None:
        result = pipeline.handle(MARIA_PHONE, "What is my balance?")
        assert "net balance of USD 38.28" in said(result)
        assert "November 20, 2026" in said(result)

    def test_a_credit_keeps_its_minus_sign(self, pipeline: AssistantPipeline) -> None:
        result = pipeline.handle(JOSE_PHONE, "cuanto debo")
        assert "saldo neto de Bs. -250,00" in said(result)
        assert "saldo a favor: Bs. 250,00" in said(result)

    def test_bill_change_states_the_computed_differences(self, pipeline: AssistantPipeline) -> None:
        result = pipeline.handle(MARIA_PHONE, "¿Por qué mi factura salió más alta este mes?")
        assert result.action is Action.REPLY
        assert "El total subió USD 5,80." in said(result)
        assert "Reconexión: cargo nuevo de USD 5,00." in said(result)
        assert "IVA: subió USD 0,80." in said(result)

    def test_policy_questions_are_answered_from_the_knowledge_base_with_a_citation(
        self, pipeline: AssistantPipeline
    ) -> None:
        result = pipeline.handle(MARIA_PHONE, "¿Cuánto es el recargo por mora?")
        assert result.action is Action.REPLY
        assert result.citations == ("es-late-fee",)
        assert "recargo por mora del 5%" in said(result)
        assert "#" not in said(result)

    def test_the_last_invoice_asks_for_one_invoice(
        self, pipeline: AssistantPipeline, capabilities: FakeCapabilities
    ) -> None:
        result = pipeline.handle(MARIA_PHONE, "my last invoice please")
        assert capabilities.called("invoices") == [(("1000004821",), {"status": None, "limit": 1})]
        assert "INV-2026-004281" in said(result)
        assert "INV-2026-004102" not in said(result)

    def test_a_business_not_found_is_answered_as_such(self, pipeline: AssistantPipeline) -> None:
        result = pipeline.handle(ANA_PHONE, "¿Recibieron mi pago?")
        assert result.action is Action.REPLY
        assert result.reply == "No encontré pagos registrados en tu cuenta."

    def test_a_capability_that_finds_nothing_says_so(self, pipeline: AssistantPipeline) -> None:
        result = pipeline.handle(ANA_PHONE, "¿Por qué subió mi factura?")
        assert result.reply == "No encontré dos facturas tuyas para comparar."

    def test_a_plan_without_a_scheduled_change(self, pipeline: AssistantPipeline) -> None:
        result = pipeline.handle(JOSE_PHONE, "What plan am I on?")
        assert result.reply == (
            "Your current plan is Hogar 30 (PLN-HOGAR-30): 30 Mbps down and 10 Mbps up for "
            "Bs. 1,450.00 a month. Service status: suspended. Your next invoice is issued on "
            "December 12, 2026."
        )

    def test_a_greeting_gets_a_greeting(self, pipeline: AssistantPipeline) -> None:
        result = pipeline.handle(ANA_PHONE, "Hola, buenas tardes")
        assert result.action is Action.REPLY
        assert said(result).startswith("¡Hola Ana!")


class TestExactIdentifiers:
    def test_an_invoice_number_is_looked_up_exactly_after_normalising_case_and_dashes(
        self, pipeline: AssistantPipeline, capabilities: FakeCapabilities
    ) -> None:
        result = pipeline.handle(MARIA_PHONE, "detalle de la factura inv\u20132026\u2013004281")
        assert capabilities.called("invoice_by_number") == [
            (("1000004821",), {"invoice_number": "INV-2026-004281"})
        ]
        assert said(result).startswith("Factura INV-2026-004281 (pendiente)")

    @pytest.mark.parametrize(
        "literal",
        [
            "INV-2026-004218",  # transposed digits of the customer's own INV-2026-004281
            "INV-2026-004300",  # another customer of the same operator
            "INV-2026-500123",  # another operator's invoice
        ],
    )
    def test_an_invoice_that_is_not_the_customers_is_not_found_and_never_substituted(
        self, pipeline: AssistantPipeline, literal: str
    ) -> None:
        result = pipeline.handle(MARIA_PHONE, f"¿Cuánto debo de la factura {literal}?")
        assert result.action is Action.REPLY
        assert result.reply == (
            f"No encontré la factura {literal} en tu cuenta. Verifica el dato e inténtalo de nuevo."
        )

    def test_a_malformed_invoice_number_is_not_found_without_a_lookup(
        self, pipeline: AssistantPipeline, capabilities: FakeCapabilities
    ) -> None:
        result = pipeline.handle(MARIA_PHONE, "invoice INV-2026-04281 please")
        assert capabilities.called("invoice_by_number") == []
        assert said(result).startswith("I could not find invoice INV-2026-04281")

    def test_a_lookup_that_returns_another_number_is_refused(
        self, make_pipeline: PipelineFactory, capabilities: FakeCapabilities
    ) -> None:
        neighbour = dict(
            capabilities.world["fibranet"]["1000004821"].invoices[0],
            invoice_number="INV-2026-004282",
        )
        capabilities.world["fibranet"]["1000004821"].invoices.append(neighbour)
        capabilities.invoice_by_number = lambda account, invoice_number: (  # type: ignore[method-assign]
            FakeCapabilities.invoice_by_number(capabilities, account, "INV-2026-004282")
        )
        result = make_pipeline().handle(MARIA_PHONE, "factura INV-2026-004281")
        assert said(result).startswith("No encontré la factura INV-2026-004281")

    def test_someone_elses_account_number_is_not_found_and_not_answered(
        self, pipeline: AssistantPipeline, capabilities: FakeCapabilities
    ) -> None:
        result = pipeline.handle(MARIA_PHONE, "saldo de la cuenta 1000007310")
        assert said(result).startswith("No encontré la cuenta 1000007310")
        assert capabilities.called("balance") == []

    def test_the_customers_own_account_number_is_fine(self, pipeline: AssistantPipeline) -> None:
        result = pipeline.handle(MARIA_PHONE, "saldo de la cuenta 1000004821")
        assert "USD 38,28" in said(result)

    def test_bill_change_about_an_older_invoice_shows_that_invoice_instead(
        self, pipeline: AssistantPipeline
    ) -> None:
        result = pipeline.handle(MARIA_PHONE, "¿Por qué la factura INV-2026-004102 salió más alta?")
        assert said(result).startswith("Factura INV-2026-004102 (pagada)")
        assert stages(result)["bill_change"] == "showing the requested invoice instead"

    def test_bill_change_about_the_latest_invoice_is_the_comparison(
        self, pipeline: AssistantPipeline
    ) -> None:
        result = pipeline.handle(MARIA_PHONE, "why is INV-2026-004281 higher?")
        assert said(result).startswith("Your invoice INV-2026-004281 is USD 38.28")


class TestIdentity:
    # Identity is proven, not claimed: the old behaviour (a cédula alone from any phone opened
    # the account) is replaced by a hand-over by default and two keys on opt-in.
    def test_an_unknown_phone_asking_about_an_account_is_handed_over_for_verification(
        self, pipeline: AssistantPipeline, capabilities: FakeCapabilities
    ) -> None:
        result = pipeline.handle(UNKNOWN_PHONE, "¿Cuánto debo?")
        assert result.reason is EscalationReason.IDENTITY_UNVERIFIED
        assert "verificar tu identidad" in str(result.reply)
        assert capabilities.called("balance") == []

    @pytest.mark.parametrize(
        "claim",
        [
            "mi cédula es V-12.345.678, ¿cuánto debo?",
            "soy 1000004821, ¿cuál es mi plan?",
            "V-12345678",
        ],
    )
    def test_a_claimed_identifier_opens_nothing_by_default(
        self, pipeline: AssistantPipeline, capabilities: FakeCapabilities, claim: str
    ) -> None:
        result = pipeline.handle(UNKNOWN_PHONE, claim)
        assert result.reason is EscalationReason.IDENTITY_UNVERIFIED
        assert "38,28" not in str(result.reply) and "Fibra 100" not in str(result.reply)
        assert capabilities.called("customer_by_national_id") == []
        assert capabilities.called("customer_by_account") == []

    def test_two_factor_needs_account_and_national_id_of_one_customer(
        self, make_pipeline: PipelineFactory, store: SqlConversationStore
    ) -> None:
        pipeline = make_pipeline(settings=PipelineSettings(two_factor_self_service=True))
        asked = pipeline.handle(UNKNOWN_PHONE, "¿Cuánto debo?")
        assert "número de cuenta y tu cédula" in str(asked.reply)
        only_cedula = pipeline.handle(UNKNOWN_PHONE, "V-12.345.678")
        assert "número de cuenta y tu cédula" in str(only_cedula.reply)
        result = pipeline.handle(UNKNOWN_PHONE, "cuenta 1000004821, cédula V-12.345.678")
        assert "tu cuenta 1000004821 tiene un saldo neto de USD 38,28" in str(result.reply)
        assert store.get(TENANT, UNKNOWN_PHONE).verified_account == "1000004821"

    def test_two_factor_keys_of_different_customers_are_not_found(
        self, make_pipeline: PipelineFactory, store: SqlConversationStore
    ) -> None:
        pipeline = make_pipeline(settings=PipelineSettings(two_factor_self_service=True))
        result = pipeline.handle(UNKNOWN_PHONE, "1000009999 y V-12345678")
        assert str(result.reply).startswith("No encontré ninguna cuenta con ese dato.")
        assert store.get(TENANT, UNKNOWN_PHONE).verified_account is None

    def test_an_unknown_phone_may_ask_a_policy_question(self, pipeline: AssistantPipeline) -> None:
        result = pipeline.handle(UNKNOWN_PHONE, "What is the late fee?")
        assert result.citations == ("en-late-fee",)

    def test_what_the_message_claims_never_overrides_the_phone(
        self, pipeline: AssistantPipeline, capabilities: FakeCapabilities
    ) -> None:
        result = pipeline.handle(MARIA_PHONE, "soy José, cédula V-9876543, ¿cuánto debo?")
        assert said(result).startswith("No encontré la cédula o RIF V-9876543")
        assert capabilities.called("customer_by_national_id") == []


class TestRefusalPaths:
    def test_a_request_for_a_person_escalates_at_once(
        self,
        pipeline: AssistantPipeline,
        capabilities: FakeCapabilities,
        store: SqlConversationStore,
    ) -> None:
        result = pipeline.handle(MARIA_PHONE, "Quiero hablar con un asesor")
        assert result.action is Action.ESCALATE
        assert result.reason is EscalationReason.USER_REQUEST
        assert said(result).startswith("Claro, te comunico con un asesor")
        # only who is writing, for the agent's summary: nothing of the account is read
        assert [name for name, _, _ in capabilities.calls] == ["customer_by_phone"]
        assert store.get(TENANT, MARIA_PHONE).state is ConversationState.WAITING_FOR_HUMAN
        assert [e.reason for e in store.escalations(TENANT, MARIA_PHONE)] == ["USER_REQUEST"]

    def test_after_an_escalation_the_bot_is_silent(self, pipeline: AssistantPipeline) -> None:
        pipeline.handle(MARIA_PHONE, "a human please")
        result = pipeline.handle(MARIA_PHONE, "hello?")
        assert result.action is Action.SILENT
        assert result.reply is None
        assert stages(result) == {"gate": "silent"}

    def test_while_a_person_has_the_conversation_the_bot_writes_nothing(
        self,
        pipeline: AssistantPipeline,
        store: SqlConversationStore,
        capabilities: FakeCapabilities,
    ) -> None:
        before = store.assign_agent(TENANT, MARIA_PHONE, "agent-7")
        result = pipeline.handle(MARIA_PHONE, "¿Cuál es mi saldo?")
        assert result.action is Action.SILENT
        assert store.get(TENANT, MARIA_PHONE) == before
        assert capabilities.calls == []

    def test_released_back_to_the_bot_it_answers_again(
        self, pipeline: AssistantPipeline, store: SqlConversationStore
    ) -> None:
        pipeline.handle(MARIA_PHONE, "agente")
        store.release_to_bot(TENANT, MARIA_PHONE)
        assert pipeline.handle(MARIA_PHONE, "mi saldo").action is Action.REPLY

    @pytest.mark.parametrize(
        ("capability", "phone", "before", "message"),
        [
            ("customer_by_phone", MARIA_PHONE, (), "¿Cuál es mi saldo?"),
            ("customer_by_account", UNKNOWN_PHONE, (), "1000004821 V-12345678"),
            ("customer_by_account", UNKNOWN_PHONE, ("1000004821 V-12345678",), "mi saldo"),
            ("balance", MARIA_PHONE, (), "¿Cuál es mi saldo?"),
            ("invoice_by_number", MARIA_PHONE, (), "factura INV-2026-004281"),
            ("bill_change", MARIA_PHONE, (), "¿por qué la factura INV-2026-004281 subió?"),
        ],
    )
    def test_an_outage_escalates_tool_error_naming_what_failed(
        self,
        make_pipeline: PipelineFactory,
        capabilities: FakeCapabilities,
        capability: str,
        phone: str,
        before: tuple[str, ...],
        message: str,
    ) -> None:
        # Claims from an unknown phone are only looked up on the two-factor opt-in.
        pipeline = make_pipeline(settings=PipelineSettings(two_factor_self_service=True))
        for earlier in before:
            pipeline.handle(phone, earlier)
        capabilities.outages.add(capability)
        result = pipeline.handle(phone, message)
        assert result.reason is EscalationReason.TOOL_ERROR
        assert escalated(result).context.capability == capability
        assert "unavailable: HTTP 503" in escalated(result).summary.es
        assert said(result).startswith("En este momento no puedo consultar")

    def test_the_agent_summary_names_the_customer(
        self, pipeline: AssistantPipeline, capabilities: FakeCapabilities
    ) -> None:
        capabilities.outages.add("balance")
        result = pipeline.handle(MARIA_PHONE, "What is my balance?")
        assert (
            "María Fernanda Rodríguez (cuenta 1000004821, teléfono" in escalated(result).summary.es
        )
        assert "Capability: balance." in escalated(result).summary.en
        assert said(result).startswith("I can't reach the billing system")

    def test_an_action_the_bot_cannot_do_escalates_capability_missing(
        self, pipeline: AssistantPipeline
    ) -> None:
        result = pipeline.handle(MARIA_PHONE, "Quiero cambiar mi plan al de 300 megas")
        assert result.reason is EscalationReason.CAPABILITY_MISSING
        assert escalated(result).context.capability == "change_plan"

    def test_a_client_without_the_capability_escalates_capability_missing(
        self, make_pipeline: PipelineFactory
    ) -> None:
        class WithoutBillChange(FakeCapabilities):
            bill_change = None  # type: ignore[assignment]

        result = make_pipeline(capabilities=WithoutBillChange()).handle(
            MARIA_PHONE, "why is my bill higher this month?"
        )
        assert result.reason is EscalationReason.CAPABILITY_MISSING
        assert stages(result)["capability"] == "missing"

    def test_no_context_and_no_tool_data_escalates_before_narration(
        self, make_pipeline: PipelineFactory
    ) -> None:
        narrator = ScriptedNarrator("never used")
        result = make_pipeline(narrator=narrator).handle(MARIA_PHONE, "¿Quién ganó el partido?")
        assert result.reason is EscalationReason.NO_CONTEXT
        assert narrator.requests == []

    def test_weak_chunks_are_not_context(self, make_pipeline: PipelineFactory) -> None:
        class Weak(FakeRetriever):
            def search(self, query: str, top_k: int = 6):  # type: ignore[no-untyped-def]
                return [replace_chunk(c) for c in super().search(query, top_k)]

        def replace_chunk(chunk):  # type: ignore[no-untyped-def]
            from dataclasses import replace

            return replace(chunk, matched_by_text=False, vector_score=0.1)

        result = make_pipeline(retriever=Weak(), classifier=KeywordClassifier()).handle(
            MARIA_PHONE, "¿Cuánto es la mora?"
        )  # the floor, not routing: no topic added
        assert result.reason is EscalationReason.NO_CONTEXT
        assert stages(result)["retrieval"] == "0 of 1 kept"

    @pytest.mark.parametrize(
        ("text_rank", "score", "kept"),
        [
            (1, 0.2, "1 of 1 kept"),  # shares a term with the question, fair cosine: context
            (None, 0.2, "0 of 1 kept"),  # the same cosine from the vector leg alone: not context
            (1, 0.1, "0 of 1 kept"),  # shares a term but is far from the question: not context
        ],
    )
    def test_a_chunk_sharing_a_term_needs_a_lower_cosine(
        self, make_pipeline: PipelineFactory, text_rank: int | None, score: float, kept: str
    ) -> None:
        from dataclasses import replace

        class Partial(FakeRetriever):
            def search(self, query: str, top_k: int = 6):  # type: ignore[no-untyped-def]
                return [
                    replace(c, matched_by_text=False, vector_score=score, text_rank=text_rank)
                    for c in super().search(query, top_k)
                ]

        result = make_pipeline(retriever=Partial(), classifier=KeywordClassifier()).handle(
            MARIA_PHONE, "¿Cuánto es la mora?"
        )
        assert stages(result)["retrieval"] == kept
        assert (result.reason is EscalationReason.NO_CONTEXT) == kept.startswith("0")

    def test_a_failing_retriever_means_no_context(self, make_pipeline: PipelineFactory) -> None:
        class Broken:
            def search(self, query: str, top_k: int = 6) -> list[object]:
                raise ConnectionError("pgvector unreachable")

        result = make_pipeline(retriever=Broken()).handle(MARIA_PHONE, "¿cómo pago por zelle?")
        assert result.reason is EscalationReason.NO_CONTEXT
        assert stages(result)["retrieval"] == "failed"

    def test_without_a_retriever_billing_questions_still_work(
        self, make_pipeline: PipelineFactory
    ) -> None:
        result = make_pipeline(retriever=None).handle(MARIA_PHONE, "mi saldo")
        assert result.action is Action.REPLY
        assert stages(result)["retrieval"] == "not_configured"

    def test_an_invented_figure_is_stopped(self, make_pipeline: PipelineFactory) -> None:
        result = make_pipeline(narrator=ScriptedNarrator("Debes Bs. 4.500.")).handle(
            MARIA_PHONE, "mi saldo"
        )
        assert result.reason is EscalationReason.UNGROUNDED_OUTPUT
        assert escalated(result).context.stopped_reply == "Debes Bs. 4.500."
        assert escalated(result).context.unsupported == ("4.500",)
        assert "Respuesta detenida: «Debes Bs. 4.500.»" in escalated(result).summary.es

    def test_a_knowledge_base_example_identifier_is_not_the_customers(
        self, make_pipeline: PipelineFactory
    ) -> None:
        narrator = ScriptedNarrator("Tu factura es la INV-2026-000123.", ("es-invoice-example",))
        result = make_pipeline(narrator=narrator).handle(MARIA_PHONE, "¿cómo leo mi factura?")
        assert result.reason is EscalationReason.UNGROUNDED_OUTPUT
        assert stages(result)["grounding"] == "grounded"
        assert stages(result)["identifier_guard"] == "foreign"

    def test_the_operators_own_public_identifiers_may_be_told(
        self, make_pipeline: PipelineFactory
    ) -> None:
        question = "¿Cómo pago por Pago Móvil?"
        assert make_pipeline().handle(MARIA_PHONE, question).reason is (
            EscalationReason.UNGROUNDED_OUTPUT
        )
        settings = PipelineSettings(operator_identifiers=("J-12345678-9", "+584143287410"))
        result = make_pipeline(settings=settings).handle(JOSE_PHONE, question)
        assert result.action is Action.REPLY
        assert "0414-3287410, RIF J-12345678-9" in said(result)

    def test_a_promise_the_bot_cannot_keep_escalates(self, make_pipeline: PipelineFactory) -> None:
        narrator = ScriptedNarrator("Tranquila, te garantizo que eliminamos el recargo.")
        result = make_pipeline(narrator=narrator).handle(MARIA_PHONE, "mi saldo")
        assert result.reason is EscalationReason.FORBIDDEN_PHRASE
        assert "te garantizo" in escalated(result).context.unsupported

    def test_a_narrator_failure_escalates(self, make_pipeline: PipelineFactory) -> None:
        class Failing:
            def narrate(self, request: NarrationRequest) -> Narration:
                raise NarrationError("model timed out")

        result = make_pipeline(narrator=Failing()).handle(MARIA_PHONE, "mi saldo")
        assert result.reason is EscalationReason.UNGROUNDED_OUTPUT
        assert escalated(result).context.unsupported == ("narrator: model timed out",)

    def test_an_empty_reply_escalates(self, make_pipeline: PipelineFactory) -> None:
        result = make_pipeline(narrator=ScriptedNarrator("  ** **  ")).handle(
            MARIA_PHONE, "mi saldo"
        )
        assert result.reason is EscalationReason.UNGROUNDED_OUTPUT
        assert escalated(result).context.unsupported == ("empty reply",)


class TestTurnOutput:
    def test_the_result_serialises_with_a_masked_trace(self, pipeline: AssistantPipeline) -> None:
        """The trace hides an account as the whole project does (`contract.masking.hide`:
        first and last two digits), no longer as the assistant's own `•`-last-four: a
        deliberate unification, so a trace reads like the simulator's log."""
        result = pipeline.handle(MARIA_PHONE, "saldo de la cuenta 1000004821")
        payload = result.to_dict()
        text = json.dumps(payload, ensure_ascii=False)
        assert payload["action"] == "reply"
        assert payload["reason"] is None
        assert "1000004821" in payload["reply"]
        assert "1000004821" not in json.dumps(payload["trace"], ensure_ascii=False)
        assert "10******21" in text

    def test_an_escalation_serialises_its_summary_and_context(
        self, pipeline: AssistantPipeline
    ) -> None:
        payload = pipeline.handle(MARIA_PHONE, "agent").to_dict()
        assert payload["reason"] == "USER_REQUEST"
        assert payload["agent_summary"]["en"].startswith("The customer asked to talk to a person.")
        assert payload["escalation_context"]["phone"] == MARIA_PHONE

    def test_the_inbound_phone_is_normalised(self, pipeline: AssistantPipeline) -> None:
        assert pipeline.handle("0412-1234567", "mi saldo").action is Action.REPLY

    def test_a_bad_phone_is_a_clear_error(self, pipeline: AssistantPipeline) -> None:
        with pytest.raises(ValueError, match="not a phone number"):
            pipeline.handle("not-a-phone", "hola")

    def test_reply_length_is_bounded(self, make_pipeline: PipelineFactory) -> None:
        pipeline = make_pipeline(settings=PipelineSettings(max_reply_chars=120))
        result = pipeline.handle(MARIA_PHONE, "mis facturas")
        assert len(said(result)) <= 120
        assert result.action is Action.REPLY
