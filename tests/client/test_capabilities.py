"""Capabilities → ToolResult: data with exact evidence, a business "no", or an escalation."""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx
import pytest
import respx

from billing_toolkit.client import (
    AsyncBillingClient,
    AsyncCapabilities,
    BillingClient,
    Capabilities,
    RetryPolicy,
    ToolResult,
)
from tests.client import payloads
from tests.client.payloads import line

A = payloads.ACCOUNT
BALANCE = f"/v1/customers/{A}/balance"
INVOICES = f"/v1/customers/{A}/invoices"


@pytest.fixture
def caps(make_client: Callable[..., BillingClient]) -> Capabilities:
    return Capabilities(make_client(retry=RetryPolicy(max_attempts=1)))


def assert_json_able(result: ToolResult) -> None:
    assert json.loads(json.dumps(result.data)) == result.data


def test_balance_states_every_figure_exactly(api: respx.MockRouter, caps: Capabilities) -> None:
    api.get(BALANCE).mock(return_value=payloads.ok(payloads.balance()))
    result = caps.balance(A)
    assert (result.capability, result.ok, result.should_escalate, result.error) == (
        "balance",
        True,
        False,
        None,
    )
    assert result.evidence_text == (
        "Balance of account 1000004821 as of 2026-11-29T10:00:00Z: amount due USD 45.00; "
        "overdue USD 0.00; credit USD 0.00; net balance USD 45.00; next due date 2026-12-10. "
        "11 days until the next due date 2026-12-10 (computed from as of 2026-11-29)."
    )
    assert result.data is not None and result.data["net_balance"] == "45.00"
    assert result.data["days_until_due"] == 11
    assert_json_able(result)


def test_customer_by_phone(api: respx.MockRouter, caps: Capabilities) -> None:
    route = api.get("/v1/customer-lookup").mock(return_value=payloads.ok(payloads.customer()))
    result = caps.customer_by_phone("+584121234567")
    assert route.calls.last.request.url.params["phone"] == "+584121234567"
    assert result.ok and result.data is not None
    assert {
        k: result.data[k]
        for k in ("account_number", "name", "status", "currency", "phone", "national_id")
    } == {
        "account_number": A,
        "name": "María Fernanda Rodríguez",
        "status": "active",
        "currency": "USD",
        "phone": "+584121234567",
        "national_id": "V-12345678",
    }
    assert result.evidence_text is not None
    for figure in (A, "V-12345678", "+584121234567", "María Fernanda Rodríguez"):
        assert figure in result.evidence_text


@pytest.mark.parametrize(
    ("method", "argument", "key"),
    [
        ("customer_by_account", A, "account_number"),
        ("customer_by_national_id", "J-12345678-9", "national_id"),
    ],
)
def test_other_customer_lookups(
    method: str, argument: str, key: str, api: respx.MockRouter, caps: Capabilities
) -> None:
    route = api.get("/v1/customer-lookup").mock(return_value=payloads.ok(payloads.customer()))
    result = getattr(caps, method)(argument)
    assert result.ok and result.capability == method
    assert dict(route.calls.last.request.url.params) == {key: argument}


def test_customer_not_found_is_an_answer_not_an_escalation(
    api: respx.MockRouter, caps: Capabilities
) -> None:
    api.get("/v1/customer-lookup").mock(return_value=payloads.problem(404, "customer_not_found"))
    result = caps.customer_by_phone("+584149999999")
    assert (result.ok, result.should_escalate, result.evidence_text, result.data) == (
        False,
        False,
        None,
        None,
    )
    assert result.error == "customer_not_found: no customer with phone +584149999999"


def test_invoices_list_each_invoice_with_its_figures(
    api: respx.MockRouter, caps: Capabilities
) -> None:
    route = api.get(INVOICES).mock(
        return_value=payloads.ok(
            payloads.page(
                [payloads.invoice("INV-2026-004300", issue_date="2026-12-05"), payloads.invoice()],
                next_cursor="abc",
            )
        )
    )
    result = caps.invoices(A, status="open", limit=2)
    assert dict(route.calls.last.request.url.params) == {"status": "open", "limit": "2"}
    assert result.ok and result.evidence_text is not None
    assert result.evidence_text.startswith(
        "The 2 most recent open invoices of account 1000004821 (newest first; more exist): "
        "Invoice INV-2026-004300 of account 1000004821: status open;"
    )
    assert "Invoice INV-2026-004281 of account 1000004821" in result.evidence_text
    assert result.data is not None and [i["invoice_number"] for i in result.data["invoices"]] == [
        "INV-2026-004300",
        "INV-2026-004281",
    ]
    assert_json_able(result)


def test_invoice_by_number_states_lines_and_totals(
    api: respx.MockRouter, caps: Capabilities
) -> None:
    api.get("/v1/invoices/INV-2026-004281").mock(return_value=payloads.ok(payloads.invoice()))
    result = caps.invoice_by_number(A, "INV-2026-004281")
    assert result.evidence_text == (
        "Invoice INV-2026-004281 of account 1000004821: status open; period 2026-11-05 to "
        "2026-12-04; issued 2026-11-05; due 2026-11-20; total USD 32.48; paid USD 0.00; amount "
        'due USD 32.48. Line items: plan_charge "Fibra 100 (05/11/2026 - 04/12/2026)" USD 28.00; '
        'tax "IVA 16%" USD 4.48. Subtotal USD 28.00; tax USD 4.48; total USD 32.48; revision 1.'
    )


def test_another_customers_invoice_looks_exactly_like_a_missing_one(
    api: respx.MockRouter, caps: Capabilities
) -> None:
    api.get("/v1/invoices/INV-2026-004281").mock(
        return_value=payloads.ok(payloads.invoice(account=payloads.OTHER_ACCOUNT))
    )
    api.get("/v1/invoices/INV-2026-004218").mock(
        return_value=payloads.problem(404, "invoice_not_found")
    )
    foreign = caps.invoice_by_number(A, "INV-2026-004281")
    missing = caps.invoice_by_number(A, "INV-2026-004218")
    assert (foreign.ok, foreign.should_escalate, foreign.evidence_text, foreign.data) == (
        False,
        False,
        None,
        None,
    )
    assert foreign.error == "invoice_not_found: no invoice INV-2026-004281 on account 1000004821"
    assert missing.error == foreign.error.replace("004281", "004218")
    assert payloads.OTHER_ACCOUNT not in (foreign.error or "")


def test_a_malformed_identifier_is_an_answer_and_calls_nothing(
    api: respx.MockRouter, caps: Capabilities
) -> None:
    route = api.route()
    result = caps.invoice_by_number(A, "INV-2026-04281")
    assert (result.ok, result.should_escalate) == (False, False)
    assert result.error is not None and result.error.startswith("validation_error: ")
    assert route.call_count == 0


def test_last_payment(api: respx.MockRouter, caps: Capabilities) -> None:
    route = api.get(f"/v1/customers/{A}/payments").mock(
        return_value=payloads.ok(payloads.page([payloads.payment()], next_cursor="n"))
    )
    result = caps.last_payment(A)
    assert route.calls.last.request.url.params["limit"] == "1"
    assert result.evidence_text == (
        "Last payment of account 1000004821: PAY-0000012345 of USD 32.48 by pago_movil "
        "(reference 004512873301), received 2026-11-12T16:45:00Z; applied USD 32.48 to "
        "INV-2026-004281; unapplied (kept as credit) USD 0.00."
    )


def test_payments_list_the_most_recent_each_as_evidence(
    api: respx.MockRouter, caps: Capabilities
) -> None:
    route = api.get(f"/v1/customers/{A}/payments").mock(
        return_value=payloads.ok(payloads.page([payloads.payment()]))
    )
    result = caps.payments(A)
    assert route.calls.last.request.url.params["limit"] == "12"
    assert result.evidence_text == (
        "The 1 most recent payments of account 1000004821 (newest first; that is all of them):"
        " Payment of account 1000004821: PAY-0000012345 of USD 32.48 by pago_movil "
        "(reference 004512873301), received 2026-11-12T16:45:00Z; applied USD 32.48 to "
        "INV-2026-004281; unapplied (kept as credit) USD 0.00."
    )
    assert result.data is not None and [p["payment_id"] for p in result.data["payments"]] == [
        "PAY-0000012345"
    ]
    assert_json_able(result)


def test_no_payment_yet_is_a_fact(api: respx.MockRouter, caps: Capabilities) -> None:
    api.get(f"/v1/customers/{A}/payments").mock(return_value=payloads.ok(payloads.page([])))
    result = caps.last_payment(A)
    assert result.ok and result.evidence_text == "Account 1000004821 has no payments on record."
    assert result.data == {"account_number": A, "payment": None}


def test_plan_with_a_scheduled_change_names_the_new_plan(
    api: respx.MockRouter, caps: Capabilities
) -> None:
    api.get(f"/v1/customers/{A}/subscription").mock(
        return_value=payloads.ok(
            payloads.subscription(
                pending={"plan_id": "PLN-FIBRA-300", "effective_date": "2026-12-05"}
            )
        )
    )
    api.get("/v1/plans").mock(
        return_value=payloads.ok(
            {
                "data": [
                    payloads.plan(),
                    payloads.plan("PLN-FIBRA-300", "Fibra 300", 300, 150, "40.00"),
                ]
            }
        )
    )
    result = caps.plan(A)
    assert result.evidence_text == (
        'Account 1000004821 is on plan PLN-FIBRA-100 "Fibra 100" (100/50 Mbps, USD 28.00 per '
        "month) since 2024-03-20; subscription status active; billing day 5; next billing date "
        '2026-12-05. Scheduled plan change to PLN-FIBRA-300 "Fibra 300" (300/150 Mbps, USD 40.00 '
        "per month) on 2026-12-05."
    )
    assert result.data is not None and result.data["pending_plan"]["monthly_price"] == "40.00"


def test_plan_without_change_does_not_read_the_catalogue(
    api: respx.MockRouter, caps: Capabilities
) -> None:
    api.get(f"/v1/customers/{A}/subscription").mock(
        return_value=payloads.ok(payloads.subscription())
    )
    plans = api.get("/v1/plans")
    result = caps.plan(A)
    assert result.ok and result.evidence_text is not None
    assert result.evidence_text.endswith("No plan change is scheduled.")
    assert plans.call_count == 0


LATEST = payloads.invoice(
    "INV-2026-004300",
    issue_date="2026-12-05",
    lines=[
        line("plan_charge", "Fibra 100 (05/12/2026 - 04/01/2027)", "28.00"),
        line("reconnection", "Reconexión", "5.00"),
        line("late_fee", "Recargo por mora 5% (INV-2026-004281)", "1.62"),
        line("tax", "IVA 16%", "5.28"),
    ],
)
PREVIOUS = payloads.invoice(
    "INV-2026-004281",
    lines=[
        line("plan_charge", "Fibra 100 (05/11/2026 - 04/12/2026)", "28.00"),
        line("discount", "Descuento de bienvenida", "-3.00"),
        line("tax", "IVA 16%", "4.00"),
    ],
)


def test_bill_change_states_what_appeared_disappeared_and_changed(
    api: respx.MockRouter, caps: Capabilities
) -> None:
    voided = payloads.invoice("INV-2026-004299", issue_date="2026-12-05", status="void")
    api.get(INVOICES).mock(
        side_effect=[
            payloads.ok(payloads.page([voided, LATEST], next_cursor="p2")),
            payloads.ok(payloads.page([PREVIOUS])),
        ]
    )
    result = caps.bill_change(A)
    assert result.ok and result.evidence_text == (
        "Comparing invoice INV-2026-004300 (issued 2026-12-05, total USD 39.90) with the previous "
        "invoice INV-2026-004281 (issued 2026-11-05, total USD 29.00) of account 1000004821: the "
        'total increased by USD 10.90 (computed); new line late_fee "Recargo por mora 5% '
        '(INV-2026-004281)" USD 1.62; new line reconnection "Reconexión" USD 5.00; line no '
        'longer billed discount "Descuento de bienvenida" USD -3.00; tax went from USD 4.00 to '
        "USD 5.28, increased by USD 1.28 (computed); plan_charge unchanged at USD 28.00."
    )
    assert result.data is not None
    assert result.data["total_difference"] == "10.90"
    assert result.data["changed"] == {"tax": "1.28"}
    assert (result.data["appeared"], result.data["disappeared"]) == (
        ["late_fee", "reconnection"],
        ["discount"],
    )
    assert_json_able(result)


def test_bill_change_with_a_single_invoice_says_there_is_nothing_to_compare(
    api: respx.MockRouter, caps: Capabilities
) -> None:
    api.get(INVOICES).mock(return_value=payloads.ok(payloads.page([PREVIOUS])))
    result = caps.bill_change(A)
    assert result.ok and result.evidence_text is not None
    assert "no invoice before INV-2026-004281" in result.evidence_text


def test_bill_change_of_a_named_invoice_compares_it_with_the_one_before_it(
    api: respx.MockRouter, caps: Capabilities
) -> None:
    """The named invoice last on its page: the one before it is on the next page, and the
    newer ones never enter the comparison."""
    older = payloads.invoice("INV-2026-004100", issue_date="2026-10-05")
    api.get(INVOICES).mock(
        side_effect=[
            payloads.ok(payloads.page([LATEST, PREVIOUS], next_cursor="p2")),
            payloads.ok(payloads.page([older])),
        ]
    )
    result = caps.bill_change(A, invoice_number="INV-2026-004281")
    assert result.ok and result.data is not None
    assert (result.data["latest"]["invoice_number"], result.data["previous"]["invoice_number"]) == (
        "INV-2026-004281",
        "INV-2026-004100",
    )
    assert result.evidence_text is not None and "INV-2026-004300" not in result.evidence_text


@pytest.mark.parametrize(
    ("named", "ok"),
    [("INV-2026-004281", True), ("INV-2026-009999", False)],
)
def test_bill_change_of_the_oldest_or_of_an_invoice_not_on_the_account(
    api: respx.MockRouter, caps: Capabilities, named: str, ok: bool
) -> None:
    api.get(INVOICES).mock(return_value=payloads.ok(payloads.page([LATEST, PREVIOUS])))
    result = caps.bill_change(A, invoice_number=named)
    assert (result.ok, result.should_escalate) == (ok, False)
    if ok:
        assert result.data is not None and result.data["previous"] is None
        assert (
            result.evidence_text is not None
            and "no invoice before " + named in result.evidence_text
        )
    else:
        assert result.error is not None and named in result.error


def test_bill_change_without_invoices_is_a_business_no(
    api: respx.MockRouter, caps: Capabilities
) -> None:
    api.get(INVOICES).mock(return_value=payloads.ok(payloads.page([])))
    result = caps.bill_change(A)
    assert (result.ok, result.should_escalate, result.evidence_text) == (False, False, None)


@pytest.mark.parametrize(
    "answer",
    [
        payloads.problem(503, "unavailable", Retry_After="1"),
        httpx.ConnectError("refused"),
        httpx.ReadTimeout("slow"),
        payloads.ok({"account_number": A}),
        payloads.problem(401, "unauthorized"),
    ],
    ids=["503", "connection", "timeout", "contract violation", "unauthorized"],
)
def test_infrastructure_failures_and_a_bad_key_escalate(
    answer: httpx.Response | Exception, api: respx.MockRouter, caps: Capabilities
) -> None:
    api.get(BALANCE).mock(side_effect=[answer])
    result = caps.balance(A)
    assert (result.ok, result.should_escalate, result.evidence_text, result.data) == (
        False,
        True,
        None,
        None,
    )
    assert result.error


def test_an_open_circuit_escalates_without_a_request(
    api: respx.MockRouter, make_client: Callable[..., BillingClient]
) -> None:
    route = api.get(BALANCE).mock(side_effect=httpx.ConnectError("refused"))
    caps = Capabilities(make_client(retry=RetryPolicy(max_attempts=1)))
    for _ in range(5):
        caps.balance(A)
    before = route.call_count
    result = caps.balance(A)
    assert (
        result.should_escalate
        and result.error is not None
        and result.error.startswith("circuit_open: ")
    )
    assert route.call_count == before


@pytest.mark.anyio
async def test_async_capabilities_give_the_same_results(
    api: respx.MockRouter,
    make_async_client: Callable[..., AsyncBillingClient],
    make_client: Callable[..., BillingClient],
) -> None:
    api.get(INVOICES).mock(return_value=payloads.ok(payloads.page([LATEST, PREVIOUS])))
    api.get("/v1/invoices/INV-2026-004281").mock(
        return_value=payloads.ok(payloads.invoice(account=payloads.OTHER_ACCOUNT))
    )
    api.get(BALANCE).mock(return_value=payloads.problem(503, "unavailable", Retry_After="0"))
    sync_caps = Capabilities(make_client(retry=RetryPolicy(max_attempts=1)))
    async with make_async_client(retry=RetryPolicy(max_attempts=1)) as client:
        async_caps = AsyncCapabilities(client)
        assert await async_caps.bill_change(A) == sync_caps.bill_change(A)
        assert await async_caps.invoice_by_number(
            A, "INV-2026-004281"
        ) == sync_caps.invoice_by_number(A, "INV-2026-004281")
        assert await async_caps.balance(A) == sync_caps.balance(A)


def test_a_passed_due_date_is_stated_as_passed(api: respx.MockRouter, caps: Capabilities) -> None:
    api.get(BALANCE).mock(return_value=payloads.ok(payloads.balance(next_due_date="2026-11-20")))
    result = caps.balance(A)
    assert result.evidence_text is not None
    assert result.evidence_text.endswith(
        "The next due date 2026-11-20 passed 9 days ago (computed)."
    )
    assert result.data is not None and result.data["days_until_due"] == -9


def test_arrears_sums_the_late_fees_of_the_overdue_invoices_and_counts_days_from_as_of(
    api: respx.MockRouter, caps: Capabilities
) -> None:
    late = payloads.line("late_fee", "Recargo por mora", "1.62")
    older = payloads.invoice(
        "INV-2026-004100",
        status="overdue",
        due_date="2026-10-20",
        issue_date="2026-10-05",
        lines=[payloads.line("plan_charge", "Fibra 100", "28.00"), late],
    )
    newer = payloads.invoice("INV-2026-004200", status="overdue", due_date="2026-11-20")
    api.get(BALANCE).mock(
        return_value=payloads.ok(payloads.balance(overdue_amount="62.10", next_due_date=None))
    )
    invoices = api.get(INVOICES).mock(return_value=payloads.ok(payloads.page([newer, older])))
    result = caps.arrears(A)
    assert invoices.calls.last.request.url.params["status"] == "overdue"
    assert result.ok and result.data is not None
    assert result.data["overdue_invoices"] == ["INV-2026-004100", "INV-2026-004200"]
    assert (result.data["late_fees"], result.data["days_overdue"]) == ("1.62", 40)
    assert result.evidence_text == (
        "Arrears of account 1000004821 as of 2026-11-29: overdue USD 62.10; overdue invoices "
        "INV-2026-004100, INV-2026-004200; late fees billed on them USD 1.62 (computed, sum of "
        "their late_fee lines); the oldest fell due 2026-10-20, 40 days ago (computed)."
    )


def test_arrears_with_nothing_overdue_says_so(api: respx.MockRouter, caps: Capabilities) -> None:
    api.get(BALANCE).mock(return_value=payloads.ok(payloads.balance()))
    api.get(INVOICES).mock(return_value=payloads.ok(payloads.page([])))
    result = caps.arrears(A)
    assert result.data is not None and result.data["days_overdue"] is None
    assert result.evidence_text == (
        "Arrears of account 1000004821 as of 2026-11-29: overdue USD 0.00; no invoice is overdue."
    )
