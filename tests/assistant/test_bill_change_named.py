"""A bill that went up, asked by its month or its last digits, or two months set side by
side: the comparison is of the invoice named, never of the latest one by default.

María has November's INV-2026-004281 (USD 38.28, a reconnection added) and October's
INV-2026-004102 (USD 32.48); some tests give her a September invoice too."""

from __future__ import annotations

import pytest

from billing_toolkit.assistant.turn.pipeline import AssistantPipeline
from billing_toolkit.assistant.understanding.periods import compared_periods
from tests.assistant.assistant_fakes import MARIA_PHONE, TENANT, FakeCapabilities, _invoice
from tests.assistant.test_pipeline import said, stages

MARIA = "1000004821"
SEPTEMBER = _invoice(
    "INV-2026-003900", MARIA, "paid", "2026-09-05", "2026-09-20", ("2026-09-05", "2026-10-04"),
    [("plan_charge", "Fibra 100", "28.00"), ("tax", "IVA 16%", "4.48")],
    "28.00", "4.48", "32.48", "32.48", "0.00",
)  # fmt: skip


def _compared(capabilities: FakeCapabilities) -> list[dict[str, object]]:
    return [kwargs for _, kwargs in capabilities.called("bill_change")]


@pytest.fixture
def with_september(capabilities: FakeCapabilities) -> FakeCapabilities:
    capabilities.world[TENANT][MARIA].invoices.append(SEPTEMBER)
    return capabilities


@pytest.mark.parametrize(
    "message",
    [
        "¿por qué subió mi factura de noviembre comparada con la de octubre?",
        "mi factura de noviembre vs la de octubre",
        "why is my November bill higher than October?",
        "compara la factura de octubre con la de noviembre",  # the earlier one first
        "¿por qué el recibo de noviembre salió más caro?",
    ],
)
def test_november_against_october_is_that_comparison(
    pipeline: AssistantPipeline, capabilities: FakeCapabilities, message: str
) -> None:
    reply = said(pipeline.handle(MARIA_PHONE, message))
    assert "INV-2026-004281" in reply and "INV-2026-004102" in reply
    assert ("5,00" in reply or "5.00" in reply) and _compared(capabilities) == [
        {"invoice_number": "INV-2026-004281"}
    ]


@pytest.mark.parametrize(
    "message",
    [
        "¿por qué subió mi factura de octubre comparada con septiembre?",  # the wrong pair before
        "why did my October bill go up?",
        "¿por qué la que termina en 4102 salió más alta?",
    ],
)
def test_october_is_compared_with_the_one_before_it_not_the_latest_with_its_own(
    pipeline: AssistantPipeline, with_september: FakeCapabilities, message: str
) -> None:
    reply = said(pipeline.handle(MARIA_PHONE, message))
    assert _compared(with_september) == [{"invoice_number": "INV-2026-004102"}]
    assert "INV-2026-004102" in reply and "INV-2026-003900" in reply
    assert "INV-2026-004281" not in reply


def test_the_oldest_invoice_has_nothing_before_it_to_compare(
    pipeline: AssistantPipeline, capabilities: FakeCapabilities
) -> None:
    reply = said(pipeline.handle(MARIA_PHONE, "why is my October bill higher?"))
    assert reply == "You have no invoice before INV-2026-004102 to compare it with."


def test_two_months_apart_are_shown_side_by_side_not_compared(
    pipeline: AssistantPipeline, with_september: FakeCapabilities
) -> None:
    result = pipeline.handle(MARIA_PHONE, "mi factura de noviembre vs la de septiembre")
    reply = said(result)
    assert stages(result)["bill_change"] == "showing the named invoices instead"
    assert reply.startswith("Factura INV-2026-004281") and "Factura INV-2026-003900" in reply


def test_a_month_with_no_invoice_is_said_and_nothing_is_compared(
    pipeline: AssistantPipeline, capabilities: FakeCapabilities
) -> None:
    reply = said(pipeline.handle(MARIA_PHONE, "¿por qué subió la factura de junio?"))
    assert "junio" in reply.lower() and _compared(capabilities) == []


def test_a_payment_compared_by_month_stays_a_payment_question(
    pipeline: AssistantPipeline, capabilities: FakeCapabilities
) -> None:
    said(pipeline.handle(MARIA_PHONE, "¿cuánto pagué en octubre vs septiembre?"))
    assert _compared(capabilities) == []


@pytest.mark.parametrize(
    ("message", "literals"),
    [
        ("octubre vs la de septiembre", ["octubre", "septiembre"]),
        ("¿cuánto debo en octubre?", []),  # a month alone is no comparison
        ("la factura de octubre vs septiembre", ["octubre", "septiembre"]),
        ("why is the July bill higher than the one from June?", ["july", "june"]),
        ("la de este mes comparada con la del mes pasado", ["mes pasado", "este mes"]),
        ("la factura de octubre y la de octubre", ["octubre"]),  # one month, once
        ("el 6 de octubre pagué la factura", []),  # a date, not a period
    ],
)
def test_the_months_a_comparison_names(message: str, literals: list[str]) -> None:
    assert [p.literal for p in compared_periods(message)] == literals
