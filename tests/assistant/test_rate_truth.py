"""The judge of rate and payment-report replies: the conversion is the contract's (half-up
to the cent, computed by the judge), a rate's days and the reports as filed back a reply,
and anything else is verified-wrong."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from billing_toolkit.assistant.evaluation.record import CustomerRecord
from billing_toolkit.assistant.evaluation.truth import rate_facts, record_facts, wrong_items

RATE = {"date": "2026-11-07", "effective_date": "2026-11-06", "rate": "91.9581"}
REPORT = {
    "report_id": "PRP-0000000033",
    "amount": "1310.40",
    "currency": "VES",
    "reference": "0045127",
    "payment_date": "2026-11-10",
    "status": "pending_verification",
}


def record(amount_due: str, currency: str = "USD") -> CustomerRecord:
    balance: dict[str, Any] = {"amount_due": amount_due, "currency": currency}
    return CustomerRecord({"account_number": "1000004821"}, balance, {}, (), ())


@pytest.mark.parametrize(
    ("reply", "wrong"),
    [
        # 32.48 × 91.9581 = 2986.799…: half-up to the cent.
        ("A esa tasa, USD 32,48 son Bs. 2.986,80.", []),
        ("A esa tasa, USD 32,48 son Bs. 2.986,79.", ["2.986,79"]),  # truncated, not rounded
        ("A esa tasa, USD 32,48 son Bs. 2.987,00.", ["2.987,00"]),
        ("El 7 de noviembre de 2026 rige la tasa del 6 de noviembre de 2026.", []),
        ("Rige la tasa del 5 de noviembre de 2026.", ["5 de noviembre de 2026"]),
        ("Tu reporte PRP-0000000033 por Bs. 1.310,40, del 10 de noviembre de 2026.", []),
        ("Tu reporte PRP-0000000033 por Bs. 1.301,40.", ["1.301,40"]),
    ],
)
def test_a_rate_or_report_reply_is_judged_by_the_contracts_figures(
    reply: str, wrong: list[str]
) -> None:
    subject = record("32.48")
    facts = record_facts(subject) | rate_facts(subject, [REPORT], [RATE])
    assert wrong_items(reply, facts, "") == wrong


def test_an_account_billed_in_bolivares_has_no_conversion() -> None:
    facts = rate_facts(record("2986.80", "VES"), [], [RATE])
    assert Decimal("274657.41") not in facts.amounts  # 2986.80 × 91.9581, never stated
    assert facts.amounts == frozenset()
