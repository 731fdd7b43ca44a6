"""Payment reports, rates and report statuses as subscribers write them on WhatsApp, from a
judge's second reading of #27 item 4 (wordings none of the first tests had).

The pure readers first — each row a message and what a demanding subscriber expects read
from it (the rows that failed that reading are the first of each table, a sample of those
that passed follows) — then whole turns against the simulator in-process: the report filed
with the right fields or not at all, the rate of the day named, the debt in bolívares at the
contract's rounding, a rejected report's reason.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from billing_toolkit.assistant.store import SqlConversationStore
from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.money import format_amount
from billing_toolkit.assistant.turn.pipeline import AssistantPipeline, PipelineSettings
from billing_toolkit.assistant.turn.result import Action
from billing_toolkit.assistant.understanding.models import intent_model
from billing_toolkit.assistant.understanding.payment_report_reading import (
    ReportReading,
    last_such_day,
    read_payment_report,
)
from billing_toolkit.assistant.understanding.rate_questions import (
    asks_due_in_bolivares,
    asks_todays_rate,
)
from billing_toolkit.assistant.understanding.report_status_questions import asks_report_status
from billing_toolkit.assistant.vocabulary.escalation import EscalationReason
from billing_toolkit.client import Capabilities
from billing_toolkit.client.payment_report_capabilities import usd_to_ves
from tests.assistant import test_payment_report_turns as turns
from tests.simulator.conftest import Sim

TODAY = date(2026, 11, 10)  # a Tuesday, the simulator's first day
MONDAY, FRIDAY = date(2026, 11, 9), date(2026, 11, 6)
BS = Decimal("1310.40")

sim = turns.sim
caps = turns.caps
store = turns.store
customer = turns.customer
reports = turns.reports
replied = turns.replied


@pytest.mark.parametrize(
    ("message", "asked", "expected"),
    [
        # "bsf": the old symbol many still write for the bolívar.
        (
            "ya pague por pago movil, nro 88776655, 1310.40 bsf, mercantil, ayer",
            None,
            ReportReading("pago_movil", BS, "VES", "88776655", "0105", MONDAY),
        ),
        # A date followed by an amount is not a date in the year 1310.
        (
            "hice pago movil el 5 de noviembre, 1310,40 bs, mercantil, ref 31313131",
            None,
            ReportReading("pago_movil", BS, "VES", "31313131", "0105", date(2026, 11, 5)),
        ),
        # Zelle's confirmation code, in Spanish.
        (
            "te hice un zelle de 25$ hoy, confirmacion 7HG52K",
            None,
            ReportReading("zelle", Decimal("25.00"), "USD", "7HG52K", None, TODAY),
        ),
        (
            "envie 25 dolares por zelle hoy, codigo de confirmacion AB12CD34",
            None,
            ReportReading("zelle", Decimal("25.00"), "USD", "AB12CD34", None, TODAY),
        ),
        # A code of letters and digits answering "¿cuál es la referencia?".
        ("ZX123", "reference", ReportReading(reference="ZX123")),
        # A correction past its words.
        (
            "disculpa, me equivoque, la referencia correcta es 0045999",
            "bank",
            ReportReading(reference="0045999"),
        ),
        # A weekday: the last one before today.
        (
            "hice una transferencia de provincial por Bs. 920,00 el lunes, ref: 123456",
            None,
            ReportReading("bank_transfer", Decimal("920.00"), "VES", "123456", "0108", MONDAY),
        ),
        (
            "pago movil banesco ref 0045127 monto 1.310,40 bolivares el viernes",
            None,
            ReportReading("pago_movil", BS, "VES", "0045127", "0134", FRIDAY),
        ),
        ("el martes", "payment_date", ReportReading(payment_date=date(2026, 11, 3))),
        ("last friday", "payment_date", ReportReading(payment_date=FRIDAY)),
        (
            "pague con zelle 25 dolares el domingo, codigo 7781AA",
            None,
            ReportReading("zelle", Decimal("25.00"), "USD", "7781AA", None, date(2026, 11, 8)),
        ),
        # A bank's code after "código", answering "¿desde qué banco?", is the bank.
        ("codigo 0134", "bank", ReportReading(bank="0134")),
        # "PM", the Pago Móvil of every chat.
        (
            "te reporto: PM Banesco 1310,40 ref 0045127 hoy",
            None,
            ReportReading("pago_movil", BS, None, "0045127", "0134", TODAY),
        ),
        # Two references are two payments.
        (
            "hice 2 pagos moviles, ref 1111 y ref 2222, bs 655,20 cada uno, banesco hoy",
            None,
            ReportReading(
                "pago_movil",
                Decimal("655.20"),
                "VES",
                "1111",
                "0134",
                TODAY,
                several_references=True,
            ),
        ),
        # A day ten days ahead is that day (the API refuses it), not last year's.
        (
            "pago movil banesco ref 0045127 bs 1.310,40 el 20/11",
            None,
            ReportReading("pago_movil", BS, "VES", "0045127", "0134", date(2026, 11, 20)),
        ),
        # Passed on the first reading.
        (
            "hola buenas tardes, ya realice el pago movil por 1310,40 Bs. banco venezuela "
            + "referencia 0045127 de hoy gracias",
            None,
            ReportReading("pago_movil", BS, "VES", "0045127", "0102", TODAY),
        ),
        (
            "Pago movil realizado. Banco: Banesco. Ref: 0045127. Monto: Bs 1.310,40. "
            + "Fecha: 09/11/2026",
            None,
            ReportReading("pago_movil", BS, "VES", "0045127", "0134", MONDAY),
        ),
        (
            "pago movil desde el 04121234567 banesco ref 0045127 bs 1.310,40 hoy",
            None,
            ReportReading("pago_movil", BS, "VES", "0045127", "0134", TODAY),
        ),
        (
            "pago movil 0102 ref 556677 bs 1.310,40 hoy",
            None,
            ReportReading("pago_movil", BS, "VES", "556677", "0102", TODAY),
        ),
        # Nothing said is nothing read.
        ("a las 3 pm te escribo", None, ReportReading()),
        ("25$", "reference", ReportReading(amount=Decimal("25.00"), currency="USD")),
        ("no tengo la referencia a mano", "reference", ReportReading()),
    ],
)
def test_a_report_is_read_as_a_venezuelan_subscriber_writes_it(
    message: str, asked: str | None, expected: ReportReading
) -> None:
    assert read_payment_report(message, TODAY, asked) == expected


@pytest.mark.parametrize("answer", ["1310bs", "25usd"])
def test_an_amount_glued_to_its_currency_is_no_reference(answer: str) -> None:
    assert read_payment_report(answer, TODAY, "reference").reference is None


def test_an_english_zelle_reads_its_date_month_first() -> None:
    said = "I sent a zelle of $25 on 11/05, confirmation number 9KX21"
    reading = read_payment_report(said, TODAY, day_first=False)
    assert (reading.reference, reading.payment_date) == ("9KX21", date(2026, 11, 5))


@pytest.mark.parametrize(
    ("month_day", "today", "expected"),
    [
        ((11, 20), TODAY, date(2026, 11, 20)),  # ten days ahead: that day
        ((12, 20), TODAY, date(2025, 12, 20)),  # forty days ahead: last year's
        ((5, 5), TODAY, date(2026, 5, 5)),
        ((12, 28), date(2026, 1, 5), date(2025, 12, 28)),
        ((2, 29), TODAY, None),
    ],
)
def test_a_day_without_a_year_is_the_last_one_unless_it_is_weeks_ahead(
    month_day: tuple[int, int], today: date, expected: date | None
) -> None:
    assert last_such_day(month_day, today) == expected


@pytest.mark.parametrize(
    ("message", "asks"),
    [
        ("el dolar a cuanto", True),
        ("tasa bcv", True),
        ("a como estuvo la tasa ayer", True),
        ("tasa del 7/11", True),
        ("what was the rate yesterday", True),
        ("bcv rate on november 7", True),
        ("en cuanto esta la tasa", True),
        ("what is the dollar rate", True),
        ("cuanto esta la tasa del bcv", True),
        ("y la tasa del domingo?", True),
        ("a cuanto estaba el dolar el sabado?", True),
        ("a como esta la tasa hoy", True),
        ("what's the exchange rate today?", True),
        ("exchange rate yesterday?", True),
        ("que tasa usan para facturar?", False),
        ("que tasa usan para la factura del 5?", False),
        ("cuanto debo hoy?", False),
    ],
)
def test_a_rate_question_is_told_from_the_rest(message: str, asks: bool) -> None:
    assert asks_todays_rate(fold(message)) is asks


@pytest.mark.parametrize(
    ("message", "asks"),
    [
        ("a cuanto me sale en bs", True),
        ("cuanto seria en bolivares a la tasa de hoy", True),
        ("cuantos bs son?", True),
        ("mi saldo en bs", True),
        ("cuanto es en bolivares?", True),
        ("how much is my bill in VES", True),
        ("cuanto es mi deuda en bolivares", True),
        ("cuanto es el dolar en bolivares", False),  # the rate itself
        ("cuanto es 20 dolares en bs", False),  # a conversion of their own figure
        ("pague en bs", False),
        ("cuanto es el plan en bolivares", False),  # a price, not their debt
    ],
)
def test_the_debt_in_bolivares_is_told_from_the_rate_and_a_conversion(
    message: str, asks: bool
) -> None:
    assert asks_due_in_bolivares(fold(message)) is asks


@pytest.mark.parametrize(
    ("message", "asks"),
    [
        ("ya verificaron?", True),
        ("y mi reporte?", True),
        ("¿lo aprobaron?", True),
        ("por que me rechazaron el pago", True),
        ("ya lo verificaron?", True),
        ("already verified my payment?", True),
        ("cuando me verifican el pago?", True),
        ("ya esta verificado mi pago?", True),
        ("me rechazaron el pago?", True),
        ("why was my payment rejected?", True),
        ("any update on my payment report?", True),
        ("hay novedades de mi pago movil?", True),
        ("ya verificaron mi pago?", True),
        ("recibieron mi pago?", False),  # a payment on record
        ("cual fue mi ultimo pago", False),
        ("can you check my payment", False),
        ("ya verificaron mi cambio de plan?", False),
    ],
)
def test_a_report_status_question_is_told_from_a_payment_question(message: str, asks: bool) -> None:
    assert asks_report_status(fold(message)) is asks


@pytest.fixture
def bot(sim: Sim, caps: Capabilities, store: SqlConversationStore) -> AssistantPipeline:
    settings = PipelineSettings(clock=sim.control.clock.now)
    return AssistantPipeline(
        tenant="fibranet",
        capabilities=caps,
        store=store,
        settings=settings,
        classifier=intent_model("ngram"),
    )


def test_a_zelle_code_and_a_weekday_answered_over_turns_are_filed(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    phone, before = customer["phone"], len(reports(sim, customer))
    asked = [
        replied(bot.handle(phone, "I want to report a payment")),
        replied(bot.handle(phone, "zelle")),
        replied(bot.handle(phone, "$25")),
        replied(bot.handle(phone, "ZX123")),
    ]
    assert [a.count("?") for a in asked] == [1, 1, 1, 1]
    assert "On what day" in asked[-1]
    done = replied(bot.handle(phone, "monday"))
    filed = reports(sim, customer)
    assert len(filed) == before + 1 and "pending verification" in done
    assert (filed[0]["reference"], filed[0]["amount"], filed[0]["currency"]) == (
        "ZX123",
        "25.00",
        "USD",
    )
    assert filed[0]["payment_date"] == MONDAY.isoformat()


def test_a_corrected_reference_is_the_one_filed(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    phone = customer["phone"]
    replied(bot.handle(phone, "hice un pago movil de Bs 1.310,40 ref 0045127"))
    replied(bot.handle(phone, "disculpa, la referencia correcta es 0045999"))
    replied(bot.handle(phone, "banesco"))
    replied(bot.handle(phone, "el viernes"))
    report = reports(sim, customer)[0]
    assert (report["reference"], report["payment_date"]) == ("0045999", FRIDAY.isoformat())


def test_two_payments_in_one_message_hand_over_and_file_nothing(
    sim: Sim, bot: AssistantPipeline, store: SqlConversationStore, customer: dict[str, Any]
) -> None:
    before = len(reports(sim, customer))
    said = "hice 2 pagos moviles, ref 1111 y ref 2222, bs 655,20 cada uno, banesco hoy"
    result = bot.handle(customer["phone"], said)
    assert result.action is Action.ESCALATE
    assert result.reason is EscalationReason.CAPABILITY_MISSING
    assert len(reports(sim, customer)) == before
    assert store.get("fibranet", customer["phone"]).report_draft is None


def test_a_day_a_few_days_ahead_is_refused_not_filed_as_last_years(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    before = len(reports(sim, customer))
    said = "pago movil banesco ref 0045127 bs 1.310,40 el 20/11"
    reply = replied(bot.handle(customer["phone"], said))
    assert reply.startswith("No pude registrar el reporte")
    assert len(reports(sim, customer)) == before


def test_the_rate_of_a_weekday_named_is_the_carried_one(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    friday = sim.get(f"/v1/exchange-rates/{FRIDAY.isoformat()}").json()
    reply = replied(bot.handle(customer["phone"], "a cuanto estaba el dolar el sabado?"))
    assert "7 de noviembre de 2026 no hubo publicación" in reply
    assert "6 de noviembre de 2026" in reply and friday["rate"].replace(".", ",") in reply
    yesterday = sim.get(f"/v1/exchange-rates/{MONDAY.isoformat()}").json()
    english = replied(bot.handle(customer["phone"], "what was the rate yesterday"))
    assert "November 9, 2026" in english and yesterday["rate"] in english


def test_what_it_comes_to_in_bs_is_the_amount_due_at_todays_rate(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    balance = sim.get(f"/v1/customers/{customer['account_number']}/balance").json()
    rate = sim.get(f"/v1/exchange-rates/{balance['as_of'][:10]}").json()
    ves = usd_to_ves(Decimal(balance["amount_due"]), Decimal(rate["rate"]))
    reply = replied(bot.handle(customer["phone"], "a cuanto me sale en bs"))
    assert format_amount(str(ves), "VES", Language.SPANISH) in reply


def test_why_a_report_was_rejected_is_its_reason(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    replied(bot.handle(customer["phone"], "pago movil banesco ref 11112222 bs 10,00 hoy"))
    sim.control.clock.advance(minutes=30)
    reply = replied(bot.handle(customer["phone"], "por que me rechazaron el pago"))
    assert "rechazado" in reply and "no aparece" in reply


def test_a_zelle_code_ending_in_k_is_filed_and_quoted(
    sim: Sim, bot: AssistantPipeline, customer: dict[str, Any]
) -> None:
    """The verifier once read the code's "52K" as 52 thousand and handed a filed report over."""
    reply = replied(
        bot.handle(customer["phone"], "te hice un zelle de 25$ hoy, confirmacion 7HG52K")
    )
    assert "7HG52K" in reply
    assert "7HG52K" in [r["reference"] for r in reports(sim, customer)]
