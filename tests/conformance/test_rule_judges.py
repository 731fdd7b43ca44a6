"""The rule judges, on hand-made traffic: every response counts, whoever sent it, and
responses are only compared within one state of the account (no payment booked between).
Also: `--retry-delay` rejects what would stall or break a run, in one line."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from billing_toolkit.conformance.cli import main
from billing_toolkit.conformance.contract_facts import load_facts
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.outcome import Status
from billing_toolkit.conformance.rules import judge_rules
from billing_toolkit.conformance.rules.subscriptions import next_billing_date
from billing_toolkit.contract.cli import EXIT_USAGE

ACCOUNT = "1000004821"
BALANCE = f"/v1/customers/{ACCOUNT}/balance"
INVOICES = f"/v1/customers/{ACCOUNT}/invoices"
PAYMENTS = f"/v1/customers/{ACCOUNT}/payments"


def exchange(
    path: str,
    body: Any,
    *,
    method: str = "GET",
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> Exchange:
    return Exchange(
        method=method,
        url=f"http://api.test{path}",
        request_headers={"Authorization": "Bearer primary"},
        request_body=None,
        status=status,
        response_headers={
            "Content-Type": "application/json",
            "X-Request-Id": "r1",
            **(headers or {}),
        },
        response_body=json.dumps(body).encode(),
    )


def balance(due: str, credit: str = "0.00", net: str | None = None) -> Exchange:
    return exchange(
        BALANCE,
        {
            "account_number": ACCOUNT,
            "currency": "USD",
            "amount_due": due,
            "overdue_amount": "0.00",
            "credit_balance": credit,
            "net_balance": net or due,
            "next_due_date": "2026-11-21" if due != "0.00" else None,
            "as_of": "2026-11-10T12:00:00Z",
        },
    )


def page(owed: str) -> Exchange:
    status = "open" if owed != "0.00" else "paid"
    invoice = {
        "invoice_number": "INV-2026-004281",
        "account_number": ACCOUNT,
        "status": status,
        "currency": "USD",
        "billing_period": {"start": "2026-11-06", "end": "2026-12-05"},
        "issue_date": "2026-11-06",
        "due_date": "2026-11-21",
        "line_items": [{"kind": "plan_charge", "description": "Plan", "amount": "10.00"}],
        "subtotal": "10.00",
        "tax": "0.00",
        "total": "10.00",
        "amount_paid": f"{10 - float(owed):.2f}",
        "amount_due": owed,
        "revision": 1,
    }
    return exchange(INVOICES, {"data": [invoice], "next_cursor": None})


def payment() -> Exchange:
    body = {
        "payment_id": "PAY-0000000001",
        "account_number": ACCOUNT,
        "amount": "10.00",
        "currency": "USD",
        "method": "cash",
        "reference": None,
        "received_at": "2026-11-10T12:00:00Z",
        "allocations": [{"invoice_number": "INV-2026-004281", "amount": "10.00"}],
        "unapplied_amount": "0.00",
    }
    return exchange(
        PAYMENTS, body, method="POST", status=201, headers={"Idempotent-Replayed": "false"}
    )


def verdicts(exchanges: list[Exchange]) -> dict[str, tuple[Status, int]]:
    outcomes = judge_rules(
        exchanges,
        load_facts(),
        {},
        other_tenant_key=None,
        selected=["balance.net", "balance.amount_due"],
    )
    return {o.name: (o.status, o.inspected) for o in outcomes}


def test_a_balance_and_a_walk_of_the_same_state_must_agree() -> None:
    found = verdicts([balance("10.00"), page("0.00")])
    assert found["balance.amount_due"] == (Status.FAILED, 1)


def test_a_booked_payment_between_them_means_they_are_not_compared() -> None:
    found = verdicts([page("10.00"), payment(), balance("0.00")])
    assert found["balance.amount_due"][0] is Status.NOT_EXERCISED
    # Compared once; with no overdue invoice among them the rule is still not exercised.
    assert verdicts([page("10.00"), payment(), balance("0.00"), page("0.00")])[
        "balance.amount_due"
    ] == (Status.NOT_EXERCISED, 1)


def test_every_balance_response_is_judged_not_only_the_first() -> None:
    found = verdicts([balance("10.00"), balance("5.00", credit="5.00", net="5.00")])
    assert found["balance.net"] == (Status.FAILED, 2)


@pytest.mark.parametrize("delay", ["-1", "abc", "301", "nan", "1e9"])
def test_a_bad_retry_delay_is_one_line_and_exit_2(
    delay: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "verify",
            "--base-url",
            "http://127.0.0.1:9",
            "--api-key",
            "k",
            "--account-number",
            ACCOUNT,
            "--retry-delay",
            delay,
        ]
    )
    err = capsys.readouterr().err
    assert code == EXIT_USAGE
    assert "--retry-delay" in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_a_rule_whose_case_no_account_showed_is_not_exercised_never_passed() -> None:
    outcome = judge_rules(
        [page("0.00")],
        load_facts(),
        {},
        other_tenant_key=None,
        selected=["invoice.status"],
        accounts_read=2,
    )[0]
    assert outcome.status is Status.NOT_EXERCISED and outcome.inspected == 1
    assert outcome.summary == (
        "not exercised: no overdue invoice, no partly paid invoice among the 2 accounts read"
    )


def test_the_credit_rule_is_exercised_only_by_a_balance_with_a_credit() -> None:
    assert verdicts([balance("10.00")])["balance.net"] == (Status.NOT_EXERCISED, 1)
    with_credit = balance("10.00", credit="4.00", net="6.00")
    assert verdicts([balance("10.00"), with_credit])["balance.net"] == (Status.PASSED, 2)


@pytest.mark.parametrize(
    ("billing_day", "today", "expected"),
    [
        (6, "2026-11-10", "2026-12-06"),
        (10, "2026-11-10", "2026-12-10"),
        (11, "2026-11-10", "2026-11-11"),
        (31, "2027-02-10", "2027-02-28"),
        (31, "2027-01-31", "2027-02-28"),
        (15, "2026-12-20", "2027-01-15"),
    ],
)
def test_the_next_billing_date_is_the_next_billing_day_clamped_to_the_month(
    billing_day: int, today: str, expected: str
) -> None:
    assert next_billing_date(billing_day, date.fromisoformat(today)).isoformat() == expected
