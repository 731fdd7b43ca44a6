"""Payment reports and rates over several turns, from an outside reading of #27 item 4:
a report filed in a turn that then hands over, a numeric date an English message may mean
two ways, a bank corrected ("no era Banesco, era Mercantil"), a report dropped ("olvídalo"),
a report asked about by its reference, a rejection worded from its reason code.

Each case failed before its fix with what a subscriber would have seen: a hand-over that
never said the report it had just filed (so they report again, and the second one is
rejected as a duplicate), the rate of 11 June for "rate 6/11", the bank they denied filed,
"cancela el reporte" handed over as a service cancellation, and "¿qué pasó con la referencia
0045127?" taken for a new report ("¿cómo pagaste?").
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from billing_toolkit.assistant.evaluation.narration_faults import FaultyNarrator, NarrationFault
from billing_toolkit.assistant.narrator import TemplateNarrator
from billing_toolkit.assistant.store import SqlConversationStore
from billing_toolkit.assistant.text.language import Language, detect_language
from billing_toolkit.assistant.text.money import format_amount
from billing_toolkit.assistant.turn.pipeline import AssistantPipeline, PipelineSettings
from billing_toolkit.assistant.turn.result import Action
from billing_toolkit.assistant.understanding.models import intent_model
from billing_toolkit.assistant.understanding.payment_report_reading import (
    read_payment_report,
    two_readings,
)
from billing_toolkit.assistant.vocabulary.escalation import EscalationReason
from billing_toolkit.client import Capabilities
from billing_toolkit.simulator.state.bank_statement import statement
from tests.assistant import test_payment_reports_unseen as unseen
from tests.simulator.conftest import Sim

TODAY = unseen.TODAY
MERCANTIL, BANESCO = "0105", "0134"

# The simulator, the real client and the ngram-model assistant of the first outside reading.
sim, caps, store, customer, bot = unseen.sim, unseen.caps, unseen.store, unseen.customer, unseen.bot
reports, replied = unseen.reports, unseen.replied


def conversation(bot: AssistantPipeline, phone: str, *messages: str) -> list[str]:
    """The replies to `messages` said one after the other, each a reply (not a hand-over)."""
    return [replied(bot.handle(phone, message)) for message in messages]


@pytest.mark.parametrize(
    ("said", "reason", "status"),
    [
        (
            "hice un pago movil de Bs 1.310,40 ref 0045127 banesco hoy, y quiero cambiar de plan",
            EscalationReason.CAPABILITY_MISSING,
            "pendiente de verificación",
        ),
        (
            "I paid by zelle $25 today, confirmation 7HG52K, and I want to cancel my service",
            EscalationReason.CAPABILITY_MISSING,
            "pending verification",
        ),
        (
            "hice un pago movil de Bs 1.310,40 ref 0045130 banesco hoy, me mandas la factura en pdf?",
            EscalationReason.CAPABILITY_MISSING,
            "pendiente de verificación",
        ),
    ],
)
def test_a_report_filed_in_a_turn_that_hands_over_is_quoted_with_its_status(
    sim: Sim,
    bot: AssistantPipeline,
    customer: dict[str, Any],
    said: str,
    reason: EscalationReason,
    status: str,
) -> None:
    result = bot.handle(customer["phone"], said)
    assert result.action is Action.ESCALATE and result.reason is reason
    filed = reports(sim, customer)[0]
    assert filed["reference"] in said
    assert filed["report_id"] in str(result.reply) and status in str(result.reply)


def test_an_outage_after_the_report_was_filed_hands_over_quoting_it_and_no_rate(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    sim.control.faults.add("http_503", operation="getExchangeRate", times=1)
    said = "hice un pago movil de Bs 1.310,40 ref 0045131 banesco hoy, a como esta la tasa?"
    result = bot.handle(customer["phone"], said)
    assert result.action is Action.ESCALATE and result.reason is EscalationReason.TOOL_ERROR
    reply = str(result.reply)
    assert reports(sim, customer)[0]["report_id"] in reply
    assert "por dólar" not in reply  # no rate stated


def test_an_english_rate_day_written_two_ways_is_asked_not_guessed(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    phone = customer["phone"]
    asked = replied(bot.handle(phone, "rate 6/11"))
    assert "November 6, 2026" in asked and "June 11, 2026" in asked and "per dollar" not in asked
    friday = sim.get("/v1/exchange-rates/2026-11-06").json()
    answered = replied(bot.handle(phone, "the rate of November 6"))
    assert "November 6, 2026" in answered and friday["rate"] in answered
    # One day either way, or a Spanish message (day-first): answered at once.
    assert "May 5, 2026" in replied(bot.handle(phone, "rate on 5/5"))
    assert "6 de noviembre de 2026" in replied(bot.handle(phone, "tasa del 6/11"))


def test_an_english_report_day_written_two_ways_is_asked_until_it_is_one(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    phone, before = customer["phone"], len(reports(sim, customer))
    said = "I paid by zelle $25 on 11/05, confirmation number 9KX22"
    first = replied(bot.handle(phone, said))
    assert "May 11, 2026" in first and "November 5, 2026" in first
    again = replied(bot.handle(phone, "11/05"))
    assert again == first and len(reports(sim, customer)) == before
    done = replied(bot.handle(phone, "November 5"))
    filed = reports(sim, customer)[0]
    assert (filed["reference"], filed["payment_date"]) == ("9KX22", "2026-11-05")
    assert filed["report_id"] in done


@pytest.mark.parametrize(
    ("message", "asked", "bank"),
    [
        ("no era Banesco, era Mercantil", "bank", MERCANTIL),
        ("sorry, it wasn't banesco, it was mercantil", "reference", MERCANTIL),
        ("mercantil, no banesco", None, MERCANTIL),
        ("en vez de banesco fue mercantil", "payment_date", MERCANTIL),
        # Two banks both said: which one paid is asked, neither taken.
        ("transferencia de banesco a mercantil ref 1234567 bs 10,00 hoy", None, None),
        ("no, banesco", "bank", BANESCO),
        ("pago movil banesco ref 0045127 bs 1.310,40 hoy", None, BANESCO),
    ],
)
def test_a_bank_denied_is_not_the_bank_read(message: str, asked: str | None, bank: str) -> None:
    assert read_payment_report(message, TODAY, asked).bank == bank


def test_a_bank_corrected_mid_report_is_the_one_filed(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    said = [
        "hice un pago movil de Bs 1.310,40 ref 0045160 banesco",
        "no era Banesco, era Mercantil",
    ]
    asked = conversation(bot, customer["phone"], *said, "ayer")
    assert "banco" not in asked[1]  # the correction taken, the day asked next
    assert reports(sim, customer)[0]["bank"] == MERCANTIL


@pytest.mark.parametrize(
    ("start", "drop", "dropped"),
    [
        ("hice un pago movil de Bs 1.310,40", "olvídalo", "no registré ningún reporte"),
        ("hice un pago movil de Bs 1.310,40", "mejor no, cancela el reporte", "no registré"),
        ("I paid by zelle $25", "never mind", "did not record any payment report"),
    ],
)
def test_a_report_dropped_is_forgotten_not_handed_over(
    sim: Sim,
    bot: AssistantPipeline,
    store: SqlConversationStore,
    customer: dict[str, Any],
    start: str,
    drop: str,
    dropped: str,
) -> None:
    phone, before = customer["phone"], len(reports(sim, customer))
    replied(bot.handle(phone, start))
    assert dropped in replied(bot.handle(phone, drop))
    assert store.get("fibranet", phone).report_draft is None
    assert len(reports(sim, customer)) == before


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("rate 6/11", (date(2026, 11, 6), date(2026, 6, 11))),
        ("on 09/11/2026", (date(2026, 11, 9), date(2026, 9, 11))),
        ("rate on 13/11", None),  # only 13 November
        ("rate on 5/5", None),  # the same day either way
        ("rate on November 6", None),
    ],
)
def test_a_numeric_date_is_in_doubt_only_when_it_is_two_days(
    message: str, expected: tuple[date, date] | None
) -> None:
    assert two_readings(message, TODAY) == expected


def _statement_report(sim: Sim, amount: str | None = None) -> str:
    """A Pago Móvil report of a payment on the simulated bank statement, as a subscriber
    writes it (`amount` in place of the statement's, for a mismatch)."""
    start = sim.control.clock.now().date()
    entry = next(
        e
        for e in statement(sim.config.seed, "fibranet", start)
        if e.currency == "VES" and e.method == "pago_movil"
    )
    said = amount or format_amount(str(entry.amount), "VES", Language.SPANISH)
    return (
        f"hice un pago movil, ref {entry.reference}, {said}, {entry.bank}, "
        f"el {entry.payment_date:%d/%m/%Y}"
    )


@pytest.mark.parametrize(
    ("twice", "amount", "worded"),
    [
        (True, None, "esa referencia ya había sido reportada antes"),
        (False, "Bs. 1,00", "el monto no coincide con el que muestra el banco"),
    ],
)
def test_a_rejection_reason_is_worded_from_its_code(
    sim: Sim,
    bot: AssistantPipeline,
    customer: dict[str, Any],
    twice: bool,
    amount: str | None,
    worded: str,
) -> None:
    """The same payment said in two messages is two reports (the key is each message's id);
    the billing API rejects the second as `duplicate_reference`, and the bot says so."""
    said, phone = _statement_report(sim, amount), customer["phone"]
    replied(bot.handle(phone, said, message_id="wamid.first"))
    if twice:
        replied(bot.handle(phone, said, message_id="wamid.second"))
    sim.control.clock.advance(minutes=30)
    reply = replied(bot.handle(phone, "¿ya verificaron mi pago?"))
    latest = reports(sim, customer)[0]
    assert latest["status"] == "rejected" and latest["report_id"] in reply
    assert worded in reply


def test_a_report_named_by_its_reference_is_answered_from_that_report(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    phone, before = customer["phone"], len(reports(sim, customer))
    replied(bot.handle(phone, "hice un pago movil de Bs 1.310,40 ref 0045127 banesco hoy"))
    filed = reports(sim, customer)[0]
    status = replied(bot.handle(phone, "¿qué pasó con la referencia 0045127?"))
    assert filed["report_id"] in status and "pendiente de verificación" in status
    english = replied(bot.handle(phone, "what happened with reference 0045127?"))
    assert filed["report_id"] in english and "pending verification" in english
    assert len(reports(sim, customer)) == before + 1  # a question, no report filed
    older = next(r for r in reports(sim, customer) if r["report_id"] != filed["report_id"])
    other = replied(bot.handle(phone, f"¿qué pasó con la referencia {older['reference']}?"))
    assert older["report_id"] in other and filed["report_id"] not in other
    unknown = replied(bot.handle(phone, "what happened with reference 99999999?"))
    assert "could not find a payment report with reference 99999999" in unknown
    assert "PRP-" not in unknown


@pytest.mark.parametrize("asked", ["¿cuánto es mi deuda en bolívares?", "how much is that in VES"])
def test_nothing_due_in_bolivares_is_the_balance_with_its_credit_not_a_zero_converted(
    sim: Sim, bot: AssistantPipeline, asked: str
) -> None:
    holder = sim.sample("credit")
    balance = sim.get(f"/v1/customers/{holder['account_number']}/balance").json()
    assert Decimal(balance["amount_due"]) == 0 and Decimal(balance["credit_balance"]) > 0
    reply = replied(bot.handle(holder["phone"], asked))
    language = Language.ENGLISH if asked.startswith("how") else Language.SPANISH
    assert format_amount(balance["credit_balance"], "USD", language) in reply
    assert "Bs. 0" not in reply and "BCV" not in reply


def test_a_bolivar_account_is_told_its_balance_in_bolivares_unconverted(
    sim: Sim, bot: AssistantPipeline
) -> None:
    holder = sim.sample("ves")
    balance = sim.get(f"/v1/customers/{holder['account_number']}/balance").json()
    assert balance["currency"] == "VES"
    reply = replied(bot.handle(holder["phone"], "¿cuánto es mi deuda en bolívares?"))
    assert format_amount(balance["amount_due"], "VES", Language.SPANISH) in reply
    assert "BCV" not in reply and "USD" not in reply


@pytest.mark.parametrize(
    "correction",
    [
        "no, fue ayer",
        "perdón, la referencia es 0045128",
        "no era Banesco, era Mercantil",
        "sorry, it was yesterday",
    ],
)
def test_a_correction_of_a_filed_report_goes_to_a_person_with_its_id(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any], correction: str
) -> None:
    """Not a new report (it would be rejected as a duplicate of the first), not "¿cómo
    pagaste?" again, not a hand-over that knows nothing of the report."""
    phone = customer["phone"]
    replied(bot.handle(phone, "hice un pago movil de Bs 1.310,40 ref 0045127 banesco hoy"))
    before = reports(sim, customer)
    result = bot.handle(phone, correction)
    assert result.action is Action.ESCALATE
    assert result.reason is EscalationReason.CAPABILITY_MISSING
    assert result.escalation is not None
    assert before[0]["report_id"] in str(result.escalation.context.wants)
    assert reports(sim, customer) == before


def test_an_english_subscriber_naming_pago_movil_is_asked_on_in_english(
    bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    phone = customer["phone"]
    replied(bot.handle(phone, "I want to report a payment"))
    assert replied(bot.handle(phone, "pago movil, 1310.40 bs")) == (
        "What is the payment's reference number?"
    )
    assert detect_language("hice un pago movil", fallback=Language.ENGLISH) is Language.SPANISH


def test_a_filed_report_whose_quote_is_corrupted_hands_over_as_ungrounded_not_sent(
    sim: Sim, caps: Capabilities, store: SqlConversationStore, customer: dict[str, Any]
) -> None:
    """The quote said before a hand-over passes the guards like any reply: a narrator that
    writes Bs. 131.040 for Bs. 1.310,40 is stopped, and the hand-over says why."""
    faulty = FaultyNarrator(TemplateNarrator(), NarrationFault.MAGNITUDE)
    settings = PipelineSettings(clock=sim.control.clock.now)
    bot = AssistantPipeline(
        tenant="fibranet",
        capabilities=caps,
        store=store,
        narrator=faulty,
        settings=settings,
        classifier=intent_model("ngram"),
    )
    said = "hice un pago movil de Bs 1.310,40 ref 0045127 banesco hoy, y quiero cambiar de plan"
    result = bot.handle(customer["phone"], said)
    injection = faulty.last_injection
    assert injection is not None and injection.applied and injection.corrupted is not None
    assert result.reason is EscalationReason.UNGROUNDED_OUTPUT
    assert injection.corrupted not in str(result.reply)
    assert result.escalation is not None and result.escalation.context.wants is not None


@pytest.mark.parametrize("asked", ["did you get my payment?", "¿recibieron mi pago?"])
def test_did_you_get_my_payment_right_after_a_report_is_its_status(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any], asked: str
) -> None:
    """Asked cold it is the last payment on record; right after a report (and while its
    status is the last thing said) it is that report, which is no payment yet."""
    phone = customer["phone"]
    cold = replied(bot.handle(phone, asked))
    assert "PAY-" in cold and "PRP-" not in cold
    replied(bot.handle(phone, "hice un pago movil de Bs 1.310,40 ref 0045127 banesco hoy"))
    filed = reports(sim, customer)[0]["report_id"]
    for _ in range(2):
        status = replied(bot.handle(phone, asked))
        assert filed in status and "PAY-" not in status
