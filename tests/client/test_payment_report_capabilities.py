"""The rate and payment-report capabilities against the simulator, in-process.

The blocking client talks to the simulator's ASGI app through `BlockingASGITransport`; the
simulator's test clock verifies reports, and its fault injection makes the outage.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from decimal import Decimal

import pytest

from billing_toolkit.client import BillingClient, BlockingASGITransport, Capabilities, RetryPolicy
from billing_toolkit.client.payment_report_capabilities import (
    ReportedPayment,
    usd_to_ves,
    ves_to_usd,
)
from billing_toolkit.client.tool_result import ToolResult
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


@pytest.mark.parametrize(
    ("usd", "rate", "ves"),
    [
        (Decimal("0.05"), Decimal("0.50"), Decimal("0.03")),  # 0.025: half-up, not half-even
        (Decimal("1.00"), Decimal("0.12500000"), Decimal("0.13")),  # 0.125 at eight decimals
        (Decimal("1.01"), Decimal("0.50"), Decimal("0.51")),  # 0.505
        (Decimal("10.00"), Decimal("36.51234565"), Decimal("365.12")),  # 365.1234565
        (Decimal("999999999999.99"), Decimal("1.00000001"), Decimal("1000000009999.99")),
    ],
)
def test_usd_to_ves_is_exact_at_half_cents_and_many_decimals(
    usd: Decimal, rate: Decimal, ves: Decimal
) -> None:
    assert usd_to_ves(usd, rate) == ves


@pytest.mark.parametrize(
    ("ves", "rate", "usd"),
    [
        (Decimal("0.25"), Decimal("10.00"), Decimal("0.03")),  # 0.025 → up
        (Decimal("1185.93"), Decimal("36.5125"), Decimal("32.48")),  # the inverse of 32.48
        (Decimal("4726.48"), Decimal("91.9581"), Decimal("51.40")),  # 51.3981…
        (Decimal("1.00"), Decimal("3.00000000"), Decimal("0.33")),  # 0.333…, never a float
    ],
)
def test_ves_to_usd_is_the_contracts_inverse_rounding(
    ves: Decimal, rate: Decimal, usd: Decimal
) -> None:
    assert ves_to_usd(ves, rate) == usd


@pytest.mark.parametrize("usd", ["32.485", "-1.00", "NaN", "Infinity", "1000000000000.00"])
def test_an_amount_that_is_no_amount_is_refused_as_an_answer_without_converting(
    caps: Capabilities, usd: str
) -> None:
    result = caps.exchange_rate(date(2026, 11, 9), Decimal(usd))
    assert (result.ok, result.should_escalate, result.data) == (False, False, None)
    assert result.error is not None and result.error.startswith("validation_error:")


def test_nothing_owed_converts_to_nothing(caps: Capabilities) -> None:
    result = caps.exchange_rate(date(2026, 11, 9), Decimal("0.00"))
    assert result.data is not None and result.evidence_text is not None
    assert result.data["ves_amount"] == "0.00"
    assert "USD 0.00 at the rate of 2026-11-09 is VES 0.00" in result.evidence_text


def test_a_holiday_rate_says_it_is_carried_from_the_last_business_day(
    caps: Capabilities,
) -> None:
    result = caps.exchange_rate(date(2026, 10, 12))  # a Monday, Día de la Resistencia Indígena
    assert result.data is not None and result.evidence_text is not None
    assert (result.data["carried_over"], result.data["effective_date"]) == (True, "2026-10-09")
    assert "no rate was published for 2026-10-12" in result.evidence_text
    assert "last published rate, of 2026-10-09" in result.evidence_text


@pytest.mark.parametrize("on", [date(2019, 1, 2), date(2026, 11, 12), date(2027, 1, 4)])
def test_a_rate_before_the_series_or_not_yet_published_is_not_found(
    caps: Capabilities, on: date
) -> None:
    result = caps.exchange_rate(on, Decimal("10.00"))
    assert (result.ok, result.should_escalate, result.data) == (False, False, None)
    assert result.error == f"not_found: no exchange rate for {on.isoformat()}"


def verified(sim: Sim, caps: Capabilities, currency: str, key: str) -> ToolResult:
    """A report of the bank statement's first `currency` entry, verified by the clock."""
    entry = next(
        e
        for e in statement(sim.config.seed, "fibranet", date(2026, 11, 10))
        if e.currency == currency
    )
    paid = ReportedPayment(
        entry.method, entry.amount, entry.currency, entry.reference, entry.payment_date, entry.bank
    )
    made = caps.report_payment(account(sim), paid, idempotency_key=key)
    assert made.data is not None
    sim.control.clock.advance(minutes=30)
    return caps.payment_report_status(account(sim), made.data["report_id"])


def test_a_bolivar_report_on_a_dollar_account_names_both_currencies_and_the_rate(
    sim: Sim, caps: Capabilities
) -> None:
    status = verified(sim, caps, "VES", "wamid-000000005")
    data, text = status.data, status.evidence_text
    assert data is not None and text is not None and data["status"] == "verified"
    credited = ves_to_usd(Decimal(data["amount"]), Decimal(data["exchange_rate"]))
    assert data["credited_amount"] == str(credited)  # the simulator divides as the contract says
    assert (
        f"It became payment {data['payment_id']}, credited USD {credited} to the account (the reported VES {data['amount']} converted "
        f"at the official rate of {data['payment_date']}, VES {data['exchange_rate']} per "
        "USD 1.00, rounded half-up to the cent)."
    ) in text


def test_a_dollar_report_on_a_dollar_account_says_it_was_not_converted(
    sim: Sim, caps: Capabilities
) -> None:
    status = verified(sim, caps, "USD", "wamid-000000006")
    data, text = status.data, status.evidence_text
    assert data is not None and text is not None and data["exchange_rate"] is None
    assert (
        f"It became payment {data['payment_id']}, credited USD {data['credited_amount']} to the "
        f"account (the reported USD {data['amount']}, in the account's currency, not converted)."
    ) in text


def test_another_tenants_report_is_exactly_a_missing_one(sim: Sim, caps: Capabilities) -> None:
    mine = sim.get(f"/v1/customers/{account(sim)}/payment-reports").json()["data"][0]
    theirs = str(sim.sample("ves", sim.llanolink)["account_number"])
    with BillingClient(
        "http://sim.test",
        sim.llanolink["api_key"],
        transport=BlockingASGITransport(sim.app),
        retry=RetryPolicy(max_attempts=1),
    ) as client:
        other = Capabilities(client)
        seen = other.payment_report_status(theirs, mine["report_id"])
        missing = other.payment_report_status(theirs, "PRP-9999999999")
    subject = f"payment report {{}} on account {theirs}"
    assert seen == ToolResult(
        "payment_report_status", False, error="not_found: no " + subject.format(mine["report_id"])
    )
    assert missing == ToolResult(
        "payment_report_status", False, error="not_found: no " + subject.format("PRP-9999999999")
    )


PAID = ReportedPayment("zelle", Decimal("20.00"), "USD", "Z000000001", date(2026, 11, 9))


@pytest.mark.parametrize(
    ("operation", "ask"),
    [
        (
            "createPaymentReport",
            lambda c, a: c.report_payment(a, PAID, idempotency_key="wamid-000000007"),
        ),
        ("getPaymentReport", lambda c, a: c.payment_report_status(a, "PRP-0000000001")),
        ("listPaymentReports", lambda c, a: c.latest_payment_report(a)),
    ],
)
def test_a_payment_report_outage_escalates_and_an_unknown_account_does_not(
    sim: Sim,
    caps: Capabilities,
    operation: str,
    ask: Callable[[Capabilities, str], ToolResult],
) -> None:
    sim.control.faults.add("http_503", operation=operation, times=1)
    down = ask(caps, account(sim))
    assert (down.ok, down.should_escalate, down.data) == (False, True, None)
    said_no = ask(caps, "1999999999")
    assert (said_no.ok, said_no.should_escalate, said_no.data) == (False, False, None)


def test_a_report_is_found_by_its_reference_across_pages_without_regard_to_case(
    sim: Sim, caps: Capabilities, monkeypatch: pytest.MonkeyPatch
) -> None:
    from billing_toolkit.client import payment_report_capabilities as module

    monkeypatch.setattr(module, "REFERENCE_PAGE", 2)
    for number, reference in enumerate(("Zk4471", "0045130", "0045131", "0045132")):
        paid = ReportedPayment("pago_movil", Decimal("10.00"), "VES", reference, date(2026, 11, 9))
        caps.report_payment(account(sim), paid, idempotency_key=f"wamid-ref-{number:06d}")
    found = caps.latest_payment_report(account(sim), reference="ZK4471")  # on the second page
    assert found.ok and found.data is not None and found.data["report"]["reference"] == "Zk4471"
    missing = caps.latest_payment_report(account(sim), reference="0099999")
    assert missing.ok and missing.data is not None and missing.data["report"] is None
    assert missing.evidence_text is not None and "with reference 0099999" in missing.evidence_text
    monkeypatch.setattr(module, "REFERENCE_MAX_PAGES", 1)  # bounded: past the walk, none
    beyond = caps.latest_payment_report(account(sim), reference="Zk4471")
    assert beyond.data is not None and beyond.data["report"] is None
