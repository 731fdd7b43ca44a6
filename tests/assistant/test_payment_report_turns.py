"""The rate, the debt in bolívares and payment reports, turn by turn, against the simulator
in-process (the real client and capabilities; the simulator's test clock verifies reports).

What a subscriber would see: the rate with the day it applies to, their amount due in
bolívares computed with the contract's rounding, a report filed once whatever the webhook
redelivers, a missing field asked for one at a time in their language, and the report's
status — never a new balance.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest

from billing_toolkit.assistant.channel.config import Secret, TenantChannel
from billing_toolkit.assistant.channel.turns import TurnRunner
from billing_toolkit.assistant.store import (
    InboundRecord,
    InboundStatus,
    SqlConversationStore,
    open_conversation_store,
)
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.money import format_amount
from billing_toolkit.assistant.turn.pipeline import AssistantPipeline, PipelineSettings
from billing_toolkit.assistant.turn.result import Action, TurnResult
from billing_toolkit.assistant.vocabulary.escalation import EscalationReason
from billing_toolkit.client import Capabilities
from billing_toolkit.client.payment_report_capabilities import usd_to_ves
from billing_toolkit.simulator.state.bank_statement import statement
from tests.assistant.assistant_fakes import MARIA_PHONE, UNKNOWN_PHONE, FakeCapabilities
from tests.client import test_payment_report_capabilities as capability_tests
from tests.simulator.conftest import Sim

REPORT = "hice un pago móvil, referencia 0045127, Bs. 1.310,40, Banesco, hoy"


sim = capability_tests.sim
caps = capability_tests.caps
"""The capabilities' own fixtures: a fresh simulator per test, the real client over ASGI."""


@pytest.fixture
def store() -> Iterator[SqlConversationStore]:
    opened = open_conversation_store()
    yield opened
    opened.close()


def pipeline(sim: Sim, caps: Capabilities, store: SqlConversationStore) -> AssistantPipeline:
    """The assistant of one replica; two built on one store are two replicas."""
    settings = PipelineSettings(clock=sim.control.clock.now)
    return AssistantPipeline(tenant="fibranet", capabilities=caps, store=store, settings=settings)


@pytest.fixture
def bot(sim: Sim, caps: Capabilities, store: SqlConversationStore) -> AssistantPipeline:
    return pipeline(sim, caps, store)


@pytest.fixture
def customer(sim: Sim) -> dict[str, Any]:
    return sim.sample("open_invoice")


def reports(sim: Sim, customer: dict[str, Any]) -> list[dict[str, Any]]:
    page = sim.get(f"/v1/customers/{customer['account_number']}/payment-reports?limit=50")
    return list(page.json()["data"])


def replied(result: TurnResult) -> str:
    assert result.action is Action.REPLY, [(r.stage, r.decision) for r in result.trace]
    return str(result.reply)


def test_a_report_with_everything_is_filed_pending_and_quotes_its_id_not_a_balance(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    before = reports(sim, customer)
    reply = replied(bot.handle(customer["phone"], REPORT, message_id="wamid.HBgM1"))
    filed = reports(sim, customer)
    assert len(filed) == len(before) + 1
    report = filed[0]
    assert (report["method"], report["amount"], report["currency"]) == (
        "pago_movil",
        "1310.40",
        "VES",
    )
    assert (report["reference"], report["bank"]) == ("0045127", "0134")
    assert report["payment_date"] == sim.control.clock.now().date().isoformat()
    assert report["report_id"] in reply and "pendiente de verificación" in reply
    balance = sim.get(f"/v1/customers/{customer['account_number']}/balance").json()
    assert format_amount(balance["amount_due"], "USD", Language.SPANISH) not in reply
    assert "saldo neto" not in reply


def test_a_redelivered_webhook_never_reports_twice(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    before = len(reports(sim, customer))
    first = replied(bot.handle(customer["phone"], REPORT, message_id="wamid.HBgM2"))
    again = replied(bot.handle(customer["phone"], REPORT, message_id="wamid.HBgM2"))
    assert len(reports(sim, customer)) == before + 1
    assert first == again
    # Another message saying the same is another report (the API judges the duplicate).
    replied(bot.handle(customer["phone"], REPORT, message_id="wamid.HBgM3"))
    assert len(reports(sim, customer)) == before + 2


def test_a_missing_field_is_asked_one_at_a_time_and_another_replica_continues(
    sim: Sim, caps: Capabilities, store: SqlConversationStore, customer: dict[str, Any]
) -> None:
    one, other = pipeline(sim, caps, store), pipeline(sim, caps, store)
    phone, before = customer["phone"], len(reports(sim, customer))
    asked = [
        replied(one.handle(phone, "quiero reportar un pago", message_id="m1")),
        replied(other.handle(phone, "por pago movil", message_id="m2")),
        replied(one.handle(phone, "1.310,40 bolívares", message_id="m3")),
        replied(other.handle(phone, "0045127", message_id="m4")),
        replied(one.handle(phone, "banesco", message_id="m5")),
    ]
    assert [a.count("?") for a in asked] == [1, 1, 1, 1, 1]
    assert "cómo pagaste" in asked[0] and "monto" in asked[1] and "referencia" in asked[2]
    assert "banco" in asked[3] and "Qué día" in asked[4]
    assert len(reports(sim, customer)) == before  # nothing filed while a field is missing
    done = replied(other.handle(phone, "ayer", message_id="m6"))
    report = reports(sim, customer)[0]
    assert report["report_id"] in done and report["reference"] == "0045127"
    assert (
        report["payment_date"]
        == date.fromordinal(sim.control.clock.now().date().toordinal() - 1).isoformat()
    )
    assert store.get("fibranet", phone).report_draft is None


def test_the_questions_are_in_the_subscribers_language(
    bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    asked = replied(bot.handle(customer["phone"], "I paid by zelle, USD 28.00"))
    assert asked == "What is the payment's reference number?"
    done = replied(bot.handle(customer["phone"], "99812AB"))
    assert "On what day" in done
    assert "pending verification" in replied(bot.handle(customer["phone"], "today"))


def test_a_topic_change_abandons_the_draft(
    sim: Sim, bot: AssistantPipeline, store: SqlConversationStore, customer: dict[str, Any]
) -> None:
    phone, before = customer["phone"], len(reports(sim, customer))
    assert "referencia" in replied(bot.handle(phone, "hice un pago movil de Bs. 10,00"))
    # "hoy" in a question is not the day paid: only the asked reference would go on.
    assert "saldo neto" in replied(bot.handle(phone, "¿cuánto debo hoy?"))
    assert store.get("fibranet", phone).report_draft is None
    later = bot.handle(phone, "0045127")
    assert "report_draft" not in [r.stage for r in later.trace]
    assert len(reports(sim, customer)) == before


def test_an_amount_that_is_not_what_is_due_is_recorded_not_judged(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    reply = replied(bot.handle(customer["phone"], "pago movil ref 7781 por Bs. 1,00 banesco hoy"))
    assert reports(sim, customer)[0]["amount"] == "1.00"
    assert "pendiente de verificación" in reply and "no coincide" not in reply


def test_an_outage_while_filing_hands_over(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    sim.control.faults.add("http_503", operation="createPaymentReport", times=1)
    result = bot.handle(customer["phone"], REPORT, message_id="wamid.HBgM4")
    assert result.action is Action.ESCALATE and result.reason is EscalationReason.TOOL_ERROR


def test_a_report_from_a_phone_not_on_any_account_is_not_filed(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    before = len(reports(sim, customer))
    result = bot.handle(UNKNOWN_PHONE, REPORT)
    assert result.reason is EscalationReason.IDENTITY_UNVERIFIED
    assert len(reports(sim, customer)) == before


def test_the_status_says_pending_then_names_the_payment_once_verified(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    start = sim.control.clock.now().date()
    entry = next(e for e in statement(sim.config.seed, "fibranet", start) if e.currency == "VES")
    amount = format_amount(str(entry.amount), "VES", Language.SPANISH)
    method = "pago movil" if entry.method == "pago_movil" else "transferencia"
    said = f"hice un {method}, ref {entry.reference}, {amount}, {entry.bank}, el {entry.payment_date:%d/%m/%Y}"
    replied(bot.handle(customer["phone"], said))
    assert "pendiente" in replied(bot.handle(customer["phone"], "¿ya verificaron mi pago?"))
    sim.control.clock.advance(minutes=30)
    verified = replied(bot.handle(customer["phone"], "¿ya verificaron mi pago?"))
    report = reports(sim, customer)[0]
    assert report["status"] == "verified"
    assert f"pago {report['payment_id']}" in verified and "verificado" in verified


@pytest.mark.parametrize(
    ("said", "reason"),
    [
        ("hice un pago movil, ref 11112222, Bs. 10,00, Banesco, hoy", "no aparece"),
        ("zelle de Bs. 500,00, conf 4410, hoy", "solo en dólares"),
    ],
)
def test_a_rejected_report_gives_the_reason_in_plain_words(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any], said: str, reason: str
) -> None:
    replied(bot.handle(customer["phone"], said))
    sim.control.clock.advance(minutes=30)
    reply = replied(bot.handle(customer["phone"], "did you get my payment report?"))
    assert reports(sim, customer)[0]["status"] == "rejected"
    assert "rejected" in reply
    spanish = replied(bot.handle(customer["phone"], "¿ya verificaron mi pago?"))
    assert "rechazado" in spanish and reason in spanish


def test_the_rate_today_names_its_day(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    today = sim.control.clock.now().date()
    rate = sim.get(f"/v1/exchange-rates/{today.isoformat()}").json()
    reply = replied(bot.handle(customer["phone"], "¿a cómo está la tasa hoy?"))
    assert rate["rate"].replace(".", ",") in reply and "10 de noviembre de 2026" in reply
    english = replied(bot.handle(customer["phone"], "what's the rate today"))
    assert rate["rate"] in english and "November 10, 2026" in english


def test_the_rate_on_a_weekend_is_the_carried_one_with_its_date(
    sim: Sim, bot: AssistantPipeline
) -> None:
    sim.control.clock.advance(days=4)  # Saturday 14 November 2026
    friday = sim.get("/v1/exchange-rates/2026-11-13").json()
    reply = replied(bot.handle(UNKNOWN_PHONE, "¿a cómo está la tasa hoy?"))
    assert "14 de noviembre de 2026 no hubo publicación" in reply
    assert "13 de noviembre de 2026" in reply and friday["rate"].replace(".", ",") in reply


def test_the_debt_in_bolivares_is_the_amount_due_at_todays_rate(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    balance = sim.get(f"/v1/customers/{customer['account_number']}/balance").json()
    rate = sim.get(f"/v1/exchange-rates/{balance['as_of'][:10]}").json()
    ves = usd_to_ves(Decimal(balance["amount_due"]), Decimal(rate["rate"]))
    reply = replied(bot.handle(customer["phone"], "¿cuánto es mi deuda en bolívares?"))
    assert format_amount(str(ves), "VES", Language.SPANISH) in reply
    assert format_amount(balance["amount_due"], "USD", Language.SPANISH) in reply


def test_a_rate_outage_hands_over(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    sim.control.faults.add("http_503", operation="getExchangeRate", times=1)
    result = bot.handle(customer["phone"], "how much is that in bolivars")
    assert result.action is Action.ESCALATE and result.reason is EscalationReason.TOOL_ERROR


def test_the_channel_hands_the_whatsapp_message_id_to_the_turn(store: SqlConversationStore) -> None:
    seen: list[str | None] = []

    class Recording:
        def handle(self, phone: str, message: str, *, message_id: str | None = None) -> TurnResult:
            seen.append(message_id)
            return TurnResult(Action.SILENT, None, (), ())

    secret = Secret("x")
    tenant = TenantChannel("fibranet", ("1",), secret, secret, secret, secret)
    runner = TurnRunner(store, lambda _tenant, _store: Recording(), {"fibranet": tenant})
    moment = datetime(2026, 11, 10, tzinfo=UTC)
    inbound = InboundRecord(
        1, "fibranet", "1", "wamid.HBgM9", "+584121234567", "text", REPORT,
        InboundStatus.PROCESSING, 1, None, moment, moment,
    )  # fmt: skip
    runner.replies(inbound)
    assert seen == ["wamid.HBgM9"]


def test_a_report_the_api_refuses_is_said_and_not_filed(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    before = len(reports(sim, customer))
    said = "hice un pago movil, ref 7781, Bs. 10,00, Banesco, el 20/12/2026"  # after today
    reply = replied(bot.handle(customer["phone"], said))
    assert reply.startswith("No pude registrar el reporte")
    assert len(reports(sim, customer)) == before


def test_a_client_without_the_report_capability_hands_the_report_over(
    store: SqlConversationStore,
) -> None:
    older = AssistantPipeline(tenant="fibranet", capabilities=FakeCapabilities(), store=store)
    result = older.handle(MARIA_PHONE, REPORT)
    assert result.reason is EscalationReason.CAPABILITY_MISSING
