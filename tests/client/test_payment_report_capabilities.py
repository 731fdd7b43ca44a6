"""The rate and payment-report capabilities against the simulator, in-process.

The blocking client talks to the simulator's ASGI app through `BlockingASGITransport`; the
simulator's test clock verifies reports, and its fault injection makes the outage.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal

import pytest

from billing_toolkit.client import BillingClient, BlockingASGITransport, Capabilities, RetryPolicy
from billing_toolkit.client.payment_report_capabilities import ReportedPayment, usd_to_ves
from billing_toolkit.simulator.state.bank_statement import statement
from tests.simulator.conftest import Sim, small_config


@pytest.fixture
def sim() -> Iterator[Sim]:
    simulator = Sim(small_config())
    with simulator.client:
        yield simulator


@pytest.fixture
def caps(sim: Sim) -> Iterator[Capabilities]:
    client = BillingClient(
        "http://sim.test",
        sim.fibranet["api_key"],
        transport=BlockingASGITransport(sim.app),
        retry=RetryPolicy(max_attempts=1),
    )
    with client:
        yield Capabilities(client)


def account(sim: Sim) -> str:
    return str(sim.sample("open_invoice")["account_number"])


def test_usd_to_ves_rounds_half_up_to_the_cent() -> None:
    assert usd_to_ves(Decimal("32.48"), Decimal("36.5125")) == Decimal("1185.93")  # …926
    assert usd_to_ves(Decimal("0.01"), Decimal("0.5000")) == Decimal("0.01")  # 0.005 → up


def test_the_rate_of_a_weekend_says_it_is_carried_and_converts_the_amount(
    caps: Capabilities,
) -> None:
    result = caps.exchange_rate(date(2026, 11, 8), Decimal("32.48"))
    assert (result.ok, result.should_escalate) == (True, False)
    assert result.data is not None and result.evidence_text is not None
    rate = Decimal(result.data["rate"])
    ves = usd_to_ves(Decimal("32.48"), rate)
    assert result.data["ves_amount"] == str(ves)
    assert "no rate was published for 2026-11-08" in result.evidence_text
    assert "of 2026-11-06" in result.evidence_text
    assert f"USD 32.48 at the rate of 2026-11-08 is VES {ves}" in result.evidence_text


def test_a_rate_outage_escalates(sim: Sim, caps: Capabilities) -> None:
    sim.control.faults.add("http_503", operation="getExchangeRate", times=1)
    result = caps.exchange_rate(date(2026, 11, 9))
    assert (result.ok, result.should_escalate) == (False, True)


def test_a_rate_not_yet_published_is_an_answer(caps: Capabilities) -> None:
    result = caps.exchange_rate(date(2026, 12, 1))
    assert (result.ok, result.should_escalate) == (False, False)


def test_a_report_is_pending_states_no_balance_and_a_redelivery_is_the_same_report(
    sim: Sim, caps: Capabilities
) -> None:
    paid = ReportedPayment(
        "pago_movil", Decimal("1310.40"), "VES", "0045127", date(2026, 11, 10), bank="0134"
    )
    first = caps.report_payment(account(sim), paid, idempotency_key="wamid-000000001")
    again = caps.report_payment(account(sim), paid, idempotency_key="wamid-000000001")
    assert first.ok and first.data is not None and first.evidence_text is not None
    assert again.data == first.data
    assert first.data["status"] == "pending_verification"
    assert f"Payment report {first.data['report_id']}" in first.evidence_text
    assert "VES 1310.40" in first.evidence_text and "Nothing is booked" in first.evidence_text
    assert "balance" not in first.evidence_text


def test_the_status_of_a_verified_report_names_its_payment(sim: Sim, caps: Capabilities) -> None:
    entry = next(
        e for e in statement(sim.config.seed, "fibranet", date(2026, 11, 10)) if e.currency == "VES"
    )
    paid = ReportedPayment(
        entry.method, entry.amount, entry.currency, entry.reference, entry.payment_date, entry.bank
    )
    made = caps.report_payment(account(sim), paid, idempotency_key="wamid-000000002")
    assert made.data is not None
    sim.control.clock.advance(minutes=30)
    status = caps.payment_report_status(account(sim), made.data["report_id"])
    assert status.data is not None and status.evidence_text is not None
    assert status.data["status"] == "verified"
    assert f"became payment {status.data['payment_id']}" in status.evidence_text
    assert f"credited {status.data['credited_amount']}" in status.evidence_text


def test_another_accounts_report_is_reported_as_missing(sim: Sim, caps: Capabilities) -> None:
    mine = sim.get(f"/v1/customers/{account(sim)}/payment-reports").json()["data"][0]
    other = str(sim.sample("ves")["account_number"])
    result = caps.payment_report_status(other, mine["report_id"])
    assert (result.ok, result.should_escalate, result.data) == (False, False, None)


def test_the_latest_report_is_the_newest(sim: Sim, caps: Capabilities) -> None:
    for key, reference in (("wamid-000000003", "0045127"), ("wamid-000000004", "0045128")):
        paid = ReportedPayment("pago_movil", Decimal("10.00"), "VES", reference, date(2026, 11, 9))
        caps.report_payment(account(sim), paid, idempotency_key=key)
    latest = caps.latest_payment_report(account(sim))
    assert latest.data is not None and latest.evidence_text is not None
    assert latest.data["report"]["reference"] == "0045128"
    assert "reference 0045128" in latest.evidence_text
