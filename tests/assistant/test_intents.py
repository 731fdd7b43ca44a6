"""Intent routing: which capability answers a message."""

from __future__ import annotations

import pytest

from billing_toolkit.assistant.text.identifiers import find_identifiers
from billing_toolkit.assistant.turn.intents import route
from billing_toolkit.assistant.vocabulary.intents import Intent


def routed(text: str) -> tuple[Intent, str | None]:
    result = route(text, find_identifiers(text))
    return result.intent, result.capability


@pytest.mark.parametrize(
    ("text", "intent", "capability"),
    [
        ("¿Cuál es mi saldo?", Intent.BALANCE, "balance"),
        ("cuanto debo", Intent.BALANCE, "balance"),
        ("How much do I owe?", Intent.BALANCE, "balance"),
        ("mis facturas", Intent.INVOICES, "invoices"),
        ("show me my invoices", Intent.INVOICES, "invoices"),
        ("la factura INV-2026-004281", Intent.INVOICE, "invoice_by_number"),
        ("¿recibieron mi pago?", Intent.LAST_PAYMENT, "last_payment"),
        ("When was my last payment?", Intent.LAST_PAYMENT, "last_payment"),
        ("¿qué plan tengo?", Intent.PLAN, "plan"),
        ("What plan am I on?", Intent.PLAN, "plan"),
        ("¿Por qué mi factura es más alta?", Intent.BILL_CHANGE, "bill_change"),
        ("why is my bill higher this month?", Intent.BILL_CHANGE, "bill_change"),
        ("why is INV-2026-004281 higher?", Intent.BILL_CHANGE, "bill_change"),
        ("¿Cómo pago por Zelle?", Intent.POLICY, None),
        ("How do I change my plan?", Intent.POLICY, None),
        ("¿Qué planes tienen?", Intent.POLICY, None),
        ("¿cuánto es la mora?", Intent.POLICY, None),
        ("Hola", Intent.GREETING, None),
        ("¡Muchas gracias!", Intent.THANKS, None),  # a closing now, not the greeting again
        ("Quiero cambiar mi plan a 300 megas", Intent.UNSUPPORTED, "change_plan"),
        ("please upgrade my plan", Intent.UNSUPPORTED, "change_plan"),
        ("I want to cancel my service", Intent.UNSUPPORTED, "cancel_service"),
        ("quiero reportar un pago", Intent.PAYMENT_REPORT, "report_payment"),
        ("mándame la factura en pdf", Intent.UNSUPPORTED, "invoice_document"),
        ("how much data have I used", Intent.UNSUPPORTED, "usage"),
    ],
)
def test_routing(text: str, intent: Intent, capability: str | None) -> None:
    assert routed(text) == (intent, capability)


def test_the_last_invoice_is_a_list_of_one() -> None:
    assert route("mi última factura").params == {"limit": 1}


def test_overdue_invoices_filter_by_status() -> None:
    assert route("mis facturas vencidas").params == {"limit": 6, "status": "overdue"}


def test_a_rule_or_the_model_names_what_decided() -> None:
    assert route("quiero cambiar mi plan").cue == "quiero cambiar mi plan"
    assert str(route("¿cuál es mi saldo?").cue).startswith("model:balance")
