"""Contract 1.1: the exchange-rate series and payment reports, verified on the test clock.

In-process (Starlette's test client on the ASGI app), a manual clock, the seeded dataset
and the seeded bank statement the simulator verifies against.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from billing_toolkit.contract.conversion import to_usd, to_ves
from billing_toolkit.simulator.state.bank_statement import StatementEntry, statement
from billing_toolkit.simulator.state.exchange_rates import rate_on
from tests.simulator.conftest import Sim, small_config

TODAY = "2026-11-10"
"""The dataset's start day (a Tuesday)."""


@pytest.fixture
def two() -> Iterator[tuple[Sim, Sim]]:
    """Two simulators of the same seed: one takes reports, the twin the equivalent payment."""
    first, twin = Sim(small_config()), Sim(small_config())
    with first.client, twin.client:
        yield first, twin


def entries(sim: Sim, method: str) -> list[StatementEntry]:
    start = sim.control.store.now.date()
    return [e for e in statement(sim.config.seed, "fibranet", start) if e.method == method]


def report(sim: Sim, account: str, key: str, **overrides: Any) -> Any:
    body = {
        "method": "pago_movil",
        "amount": "1310.40",
        "currency": "VES",
        "reference": "0045127",
        "bank": "0134",
        "payment_date": TODAY,
        "payer_phone": "+584121234567",
        "payer_national_id": "V-12345678",
        **overrides,
    }
    return sim.client.post(
        f"/v1/customers/{account}/payment-reports",
        headers={**sim.auth(), "Idempotency-Key": key},
        json=body,
    )


def of_entry(entry: StatementEntry) -> dict[str, Any]:
    return {
        "method": entry.method,
        "amount": str(entry.amount),
        "currency": entry.currency,
        "reference": entry.reference,
        "bank": entry.bank,
        "payment_date": entry.payment_date.isoformat(),
    }


def usd_account(sim: Sim) -> str:
    return str(sim.sample("open_invoice")["account_number"])


def status_of(sim: Sim, report_id: str) -> dict[str, Any]:
    answer = sim.get(f"/v1/payment-reports/{report_id}")
    assert answer.status_code == 200
    return dict(answer.json())


# --- exchange rates ------------------------------------------------------------------------


def test_a_business_day_answers_its_own_rate_with_its_scale(sim: Sim) -> None:
    rate = sim.get("/v1/exchange-rates/2026-11-09").json()
    assert rate["effective_date"] == "2026-11-09" and rate["carried_over"] is False
    assert len(rate["rate"].split(".")[1]) == rate["scale"]
    assert rate["published_at"] <= "2026-11-09T23:59:59Z"


@pytest.mark.parametrize(
    ("day", "published_for"),
    [("2026-11-08", "2026-11-06"), ("2026-11-07", "2026-11-06"), ("2026-10-12", "2026-10-09")],
)
def test_weekends_and_holidays_carry_the_last_published_rate(
    sim: Sim, day: str, published_for: str
) -> None:
    carried = sim.get(f"/v1/exchange-rates/{day}").json()
    published = sim.get(f"/v1/exchange-rates/{published_for}").json()
    assert carried["carried_over"] is True
    assert carried["effective_date"] == published_for
    assert carried["rate"] == published["rate"]


@pytest.mark.parametrize("day", ["2026-11-11", "2633-07-02", "9999-12-31", "2023-12-31"])
def test_a_date_after_today_or_before_the_series_is_not_found(sim: Sim, day: str) -> None:
    answer = sim.get(f"/v1/exchange-rates/{day}")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"


def test_a_malformed_date_is_a_validation_error(sim: Sim) -> None:
    answer = sim.get("/v1/exchange-rates/2026-02-30")
    assert answer.status_code == 400 and answer.json()["errors"][0]["field"] == "path.date"


def test_conversions_round_half_up_both_ways() -> None:
    assert to_ves(Decimal("32.48"), Decimal("36.5125")) == Decimal("1185.93")  # 1185.926
    assert to_usd(Decimal("1310.40"), Decimal("36.5120")) == Decimal("35.89")  # 35.8896
    assert to_usd(Decimal("0.05"), Decimal("10.0000")) == Decimal("0.01")  # 0.005 → up


# --- reports on intake ---------------------------------------------------------------------


def test_a_report_is_pending_books_nothing_and_is_listed_and_fetched(sim: Sim) -> None:
    account = usd_account(sim)
    before = sim.get(f"/v1/customers/{account}/balance").json()
    made = report(sim, account, "report-key-0001")
    assert made.status_code == 201 and made.headers["Idempotent-Replayed"] == "false"
    body = made.json()
    assert body["status"] == "pending_verification"
    assert [body[k] for k in ("payment_id", "credited_amount", "resolved_at")] == [None] * 3
    after = sim.get(f"/v1/customers/{account}/balance").json()
    assert {**after, "as_of": None} == {**before, "as_of": None}
    listed = sim.get(f"/v1/customers/{account}/payment-reports").json()["data"]
    assert listed[0] == body and len(listed) == 4  # newest first, then the three seeded
    assert status_of(sim, body["report_id"]) == body


def test_another_tenants_report_answers_as_a_missing_one(sim: Sim) -> None:
    made = report(sim, usd_account(sim), "report-key-0002").json()
    foreign = sim.get(f"/v1/payment-reports/{made['report_id']}", tenant=sim.llanolink)
    missing = sim.get("/v1/payment-reports/PRP-0000999999")
    assert foreign.status_code == missing.status_code == 404
    assert foreign.json()["code"] == missing.json()["code"] == "not_found"


def test_a_replayed_key_replays_and_a_changed_body_conflicts_as_for_payments(sim: Sim) -> None:
    account = usd_account(sim)
    first = report(sim, account, "report-key-0003")
    again = report(sim, account, "report-key-0003")
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    changed = report(sim, account, "report-key-0003", amount="1310.41")
    payment_conflict = sim.pay(account, "report-key-0003")
    assert changed.status_code == payment_conflict.status_code == 409
    assert changed.json()["code"] == payment_conflict.json()["code"] == "idempotency_conflict"
    listed = sim.get(f"/v1/customers/{account}/payment-reports").json()["data"]
    assert [r["report_id"] for r in listed].count(first.json()["report_id"]) == 1
    assert len(listed) == 4


def test_a_report_without_a_key_is_refused_and_records_nothing(sim: Sim) -> None:
    account = usd_account(sim)
    before = sim.get(f"/v1/customers/{account}/payment-reports").json()["data"]
    answer = sim.client.post(
        f"/v1/customers/{account}/payment-reports",
        headers=sim.auth(),
        json={
            "method": "zelle",
            "amount": "10.00",
            "currency": "USD",
            "reference": "Z1234",
            "payment_date": TODAY,
        },
    )
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "header.Idempotency-Key"
    assert sim.get(f"/v1/customers/{account}/payment-reports").json()["data"] == before


def test_a_payment_date_after_today_is_unprocessable(sim: Sim) -> None:
    answer = report(sim, usd_account(sim), "report-key-0004", payment_date="2026-11-11")
    assert answer.status_code == 422
    assert answer.json()["errors"] == [
        {"field": "body.payment_date", "message": "2026-11-11 is after today"}
    ]


# --- verification --------------------------------------------------------------------------


def test_a_report_on_the_statement_is_the_payment_create_payment_would_make(
    two: tuple[Sim, Sim],
) -> None:
    sim, twin = two
    account = usd_account(sim)
    entry = entries(sim, "pago_movil")[0]
    made = report(sim, account, "report-key-0005", **of_entry(entry)).json()
    sim.control.clock.advance(minutes=29)
    assert status_of(sim, made["report_id"])["status"] == "pending_verification"
    sim.control.clock.advance(minutes=1)
    verified = status_of(sim, made["report_id"])
    published = rate_on(sim.config.seed, entry.payment_date)
    assert published is not None
    credited = to_usd(entry.amount, published.rate)
    assert verified["status"] == "verified" and verified["rejection_reason"] is None
    assert (verified["credited_amount"], verified["exchange_rate"]) == (
        str(credited),
        str(published.rate),
    )
    twin.control.clock.advance(minutes=30)
    expected = twin.pay(account, "twin-payment-1", amount=str(credited)).json()
    (payment,) = sim.get(f"/v1/customers/{account}/payments?limit=1").json()["data"]
    assert payment["payment_id"] == verified["payment_id"]
    assert payment["reference"] == entry.reference
    assert {k: payment[k] for k in ("amount", "allocations", "unapplied_amount")} == {
        k: expected[k] for k in ("amount", "allocations", "unapplied_amount")
    }
    assert sim.get(f"/v1/customers/{account}/balance").json() == {
        **twin.get(f"/v1/customers/{account}/balance").json()
    }


def test_a_ves_account_is_credited_the_bolivares_it_reported(sim: Sim) -> None:
    account = str(sim.sample("ves")["account_number"])
    entry = entries(sim, "bank_transfer")[0]
    made = report(sim, account, "report-key-0006", **of_entry(entry)).json()
    sim.control.clock.advance(minutes=30)
    verified = status_of(sim, made["report_id"])
    assert verified["status"] == "verified"
    assert (verified["credited_amount"], verified["exchange_rate"]) == (str(entry.amount), None)


def rejected_for(sim: Sim, **overrides: Any) -> str | None:
    made = report(sim, usd_account(sim), f"reject-{len(overrides)}-{id(overrides)}", **overrides)
    assert made.status_code == 201
    sim.control.clock.advance(minutes=30)
    found = status_of(sim, made.json()["report_id"])
    assert found["status"] == "rejected" and found["payment_id"] is None
    return found["rejection_reason"]


def test_a_reference_missing_from_the_statement_is_rejected(sim: Sim) -> None:
    known = {e.reference for e in entries(sim, "pago_movil")}
    assert "0000001" not in known
    assert rejected_for(sim, reference="0000001") == "reference_not_found"


def test_a_reference_with_another_amount_is_rejected(sim: Sim) -> None:
    entry = entries(sim, "pago_movil")[0]
    wrong = {**of_entry(entry), "amount": str(entry.amount + Decimal("0.01"))}
    assert rejected_for(sim, **wrong) == "amount_mismatch"


def test_zelle_in_bolivares_is_rejected(sim: Sim) -> None:
    entry = entries(sim, "zelle")[0]
    assert rejected_for(sim, **{**of_entry(entry), "currency": "VES"}) == "currency_not_allowed"


def test_a_second_report_of_a_verified_reference_is_a_duplicate(sim: Sim) -> None:
    account = usd_account(sim)
    entry = entries(sim, "pago_movil")[1]
    first = report(sim, account, "report-key-0007", **of_entry(entry)).json()
    second = report(sim, account, "report-key-0008", **of_entry(entry)).json()
    sim.control.clock.advance(minutes=30)
    assert status_of(sim, first["report_id"])["status"] == "verified"
    assert status_of(sim, second["report_id"])["rejection_reason"] == "duplicate_reference"
    payments = sim.get(f"/v1/customers/{account}/payments").json()["data"]
    assert [p["reference"] for p in payments].count(entry.reference) == 1


def test_reports_survive_a_snapshot_and_restore(sim: Sim) -> None:
    made = report(sim, usd_account(sim), "report-key-0009").json()
    snapshot = sim.control.store.snapshot()
    sim.control.store.reset()
    assert sim.get(f"/v1/payment-reports/{made['report_id']}").status_code == 404
    sim.control.store.restore(snapshot)
    assert status_of(sim, made["report_id"]) == made


def test_seeded_reports_show_each_status_and_never_move_money(sim: Sim) -> None:
    account = usd_account(sim)
    pending, rejected, verified = sim.get(f"/v1/customers/{account}/payment-reports").json()["data"]
    assert (pending["status"], rejected["rejection_reason"], verified["status"]) == (
        "pending_verification",
        "reference_not_found",
        "verified",
    )
    payments = sim.get(f"/v1/customers/{account}/payments").json()
    balance = sim.get(f"/v1/customers/{account}/balance").json()
    sim.control.clock.advance(minutes=30)
    assert status_of(sim, pending["report_id"])["rejection_reason"] == "reference_not_found"
    assert sim.get(f"/v1/customers/{account}/payments").json() == payments
    after = sim.get(f"/v1/customers/{account}/balance").json()
    assert {**after, "as_of": None} == {**balance, "as_of": None}


def test_the_seeded_verified_report_is_a_payment_of_the_history_converted_half_up(
    sim: Sim,
) -> None:
    """The one verified report a tenant's history has: in bolívares on the dollar account
    clients test with, credited exactly its payment, at the rate of its `payment_date`."""
    account = usd_account(sim)
    listed = sim.get(f"/v1/customers/{account}/payment-reports").json()["data"]
    [verified] = [r for r in listed if r["status"] == "verified"]
    assert (verified["currency"], verified["method"]) == ("VES", "pago_movil")
    rate = sim.get(f"/v1/exchange-rates/{verified['payment_date']}").json()["rate"]
    assert verified["exchange_rate"] == rate
    assert verified["credited_amount"] == str(to_usd(Decimal(verified["amount"]), Decimal(rate)))
    payments = sim.get(f"/v1/customers/{account}/payments", params={"limit": 100}).json()["data"]
    [payment] = [p for p in payments if p["payment_id"] == verified["payment_id"]]
    assert (payment["amount"], payment["reference"], payment["method"]) == (
        verified["credited_amount"],
        verified["reference"],
        verified["method"],
    )
    assert verified["created_at"] < verified["resolved_at"]
    again = report(
        sim, account, "report-key-again", reference=verified["reference"], bank=verified["bank"]
    )
    sim.control.clock.advance(minutes=30)
    assert status_of(sim, again.json()["report_id"])["rejection_reason"] == "duplicate_reference"


def test_the_statement_is_seeded() -> None:
    day = date(2026, 11, 10)
    assert statement(7, "fibranet", day) == statement(7, "fibranet", day)
    assert statement(7, "fibranet", day) != statement(8, "fibranet", day)


def test_faults_and_the_journal_cover_the_new_operations(sim: Sim) -> None:
    account = usd_account(sim)
    before = sim.get(f"/v1/customers/{account}/payment-reports").json()["data"]
    sim.control.faults.add("http_503", operation="createPaymentReport", times=1)
    assert report(sim, account, "report-key-0010").status_code == 503
    assert sim.get(f"/v1/customers/{account}/payment-reports").json()["data"] == before
    assert report(sim, account, "report-key-0010").status_code == 201
    assert sim.control.requests.count(operation="createPaymentReport") == 2
