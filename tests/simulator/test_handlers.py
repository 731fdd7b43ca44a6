"""Each billing operation against the reference validator (openapi-core); a response that
broke the contract would raise `ContractViolation` and fail the test."""

from __future__ import annotations

from decimal import Decimal

from tests.simulator.conftest import Sim


def _problem_without_ids(body: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in body.items() if k not in ("request_id", "instance")}


def test_health_needs_no_key(sim: Sim) -> None:
    assert sim.client.get("/health/live").json() == {"status": "ok"}
    assert sim.client.get("/health/ready").json() == {"status": "ready"}


def test_missing_or_unknown_key_is_401_with_www_authenticate(sim: Sim) -> None:
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}):
        response = sim.client.get("/v1/plans", headers=headers)
        assert response.status_code == 401
        assert response.headers["www-authenticate"].startswith("Bearer")
        assert response.json()["code"] == "unauthorized"


def test_request_id_is_echoed_or_generated(sim: Sim) -> None:
    echoed = sim.get("/v1/plans", headers={"X-Request-Id": "abc-123"})
    assert echoed.headers["x-request-id"] == "abc-123"
    generated = sim.get("/v1/plans")
    assert generated.headers["x-request-id"].startswith("req-")


def test_plans_are_the_tenants_catalogue_ordered_by_id(sim: Sim) -> None:
    plans = sim.get("/v1/plans").json()["data"]
    assert [p["plan_id"] for p in plans] == sorted(p["plan_id"] for p in plans)
    fibra100 = next(p for p in plans if p["plan_id"] == "PLN-FIBRA-100")
    assert fibra100 == {
        "plan_id": "PLN-FIBRA-100",
        "name": "Fibra 100",
        "download_mbps": 100,
        "upload_mbps": 50,
        "monthly_price": "28.00",
        "currency": "USD",
    }
    assert all(
        p["plan_id"].startswith(("PLN-LLANO", "PLN-RURAL"))
        for p in sim.get("/v1/plans", sim.llanolink).json()["data"]
    )


def test_lookup_by_each_identifier_finds_the_same_customer(sim: Sim) -> None:
    sample = sim.sample("individual")
    for name in ("phone", "national_id", "account_number"):
        found = sim.get("/v1/customer-lookup", params={name: sample[name]})
        assert (
            found.status_code == 200 and found.json()["account_number"] == sample["account_number"]
        )


def test_lookup_needs_exactly_one_identifier(sim: Sim) -> None:
    none = sim.get("/v1/customer-lookup")
    assert none.status_code == 400 and none.json()["errors"][0]["field"] == "query.phone"
    sample = sim.sample("individual")
    two = sim.get(
        "/v1/customer-lookup",
        params={"phone": sample["phone"], "national_id": sample["national_id"]},
    )
    assert two.status_code == 400 and two.json()["errors"][0]["field"] == "query.national_id"


def test_lookup_is_exact_and_tenant_scoped(sim: Sim) -> None:
    sample = sim.sample("individual")
    other = sim.get("/v1/customer-lookup", sim.llanolink, params={"phone": sample["phone"]})
    unknown = sim.get("/v1/customer-lookup", params={"phone": "+584269999999"})
    assert other.status_code == unknown.status_code == 404
    assert _problem_without_ids(other.json()) == _problem_without_ids(unknown.json())
    dotted = sim.get("/v1/customer-lookup", params={"national_id": "V-12.345.678"})
    assert dotted.status_code == 400 and dotted.json()["errors"][0]["field"] == "query.national_id"


def test_customer_and_subscription(sim: Sim) -> None:
    sample = sim.sample("pending_change")
    customer = sim.get(f"/v1/customers/{sample['account_number']}").json()
    assert customer["national_id"] == sample["national_id"] and customer["service_address"]["state"]
    subscription = sim.get(f"/v1/customers/{sample['account_number']}/subscription").json()
    assert subscription["pending_change"]["effective_date"] == subscription["next_billing_date"]
    cancelled = sim.sample("cancelled")
    assert (
        sim.get(f"/v1/customers/{cancelled['account_number']}/subscription").json()[
            "next_billing_date"
        ]
        is None
    )


def test_balance_adds_up_from_the_open_invoices(sim: Sim) -> None:
    account = sim.sample("overdue")["account_number"]
    balance = sim.get(f"/v1/customers/{account}/balance").json()
    invoices = sim.get(f"/v1/customers/{account}/invoices", params={"limit": 100}).json()["data"]
    open_due = sum(Decimal(i["amount_due"]) for i in invoices if i["status"] in ("open", "overdue"))
    overdue = sum(Decimal(i["amount_due"]) for i in invoices if i["status"] == "overdue")
    assert (
        Decimal(balance["amount_due"]) == open_due
        and Decimal(balance["overdue_amount"]) == overdue > 0
    )
    assert Decimal(balance["net_balance"]) == Decimal(balance["amount_due"]) - Decimal(
        balance["credit_balance"]
    )
    assert balance["as_of"] == sim.info["now"]


def test_credit_shows_as_a_negative_net_balance(sim: Sim) -> None:
    balance = sim.get(f"/v1/customers/{sim.sample('credit')['account_number']}/balance").json()
    assert Decimal(balance["credit_balance"]) > 0 and Decimal(balance["net_balance"]) < 0


def test_invoice_totals_add_up_from_their_lines(sim: Sim) -> None:
    invoice = sim.get(f"/v1/invoices/{sim.fibranet['invoice_numbers']['overdue']}").json()
    lines = invoice["line_items"]
    assert Decimal(invoice["subtotal"]) == sum(
        Decimal(x["amount"]) for x in lines if x["kind"] != "tax"
    )
    assert Decimal(invoice["tax"]) == sum(Decimal(x["amount"]) for x in lines if x["kind"] == "tax")
    assert Decimal(invoice["total"]) == Decimal(invoice["subtotal"]) + Decimal(invoice["tax"])
    assert Decimal(invoice["amount_due"]) == Decimal(invoice["total"]) - Decimal(
        invoice["amount_paid"]
    )
    assert "late_fee" in [x["kind"] for x in lines] and invoice["revision"] == 2


def test_near_duplicate_and_foreign_invoice_numbers_are_not_found(sim: Sim) -> None:
    pair = sim.fibranet["near_duplicate_invoices"][0]
    assert sim.get(f"/v1/invoices/{pair['first']}").json()["invoice_number"] == pair["first"]
    assert sim.get(f"/v1/invoices/{pair['second']}").json()["invoice_number"] == pair["second"]
    missing = "INV-2026-" + pair["first"][-6:-2] + "99"
    foreign = sim.get(f"/v1/invoices/{sim.fibranet['other_tenant_invoice']}")
    unknown = sim.get(f"/v1/invoices/{missing}")
    assert foreign.status_code == unknown.status_code == 404
    assert _problem_without_ids(foreign.json()) == _problem_without_ids(unknown.json())
    assert foreign.json()["code"] == "invoice_not_found"


def test_another_tenants_customer_looks_exactly_like_a_missing_one(sim: Sim) -> None:
    foreign = sim.sample("individual", sim.llanolink)["account_number"]
    for suffix in ("", "/balance", "/invoices", "/payments", "/subscription"):
        theirs = sim.get(f"/v1/customers/{foreign}{suffix}")
        missing = sim.get(f"/v1/customers/{sim.fibranet['unknown_account_number']}{suffix}")
        assert theirs.status_code == missing.status_code == 404
        assert _problem_without_ids(theirs.json()) == _problem_without_ids(missing.json())


def test_invoice_pages_walk_every_invoice_once_newest_first(sim: Sim) -> None:
    account = sim.sample("overdue")["account_number"]
    seen, cursor = [], None
    while True:
        params = {"limit": 3, **({"cursor": cursor} if cursor else {})}
        page = sim.get(f"/v1/customers/{account}/invoices", params=params).json()
        seen += [(i["issue_date"], i["invoice_number"]) for i in page["data"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    everything = sim.get(f"/v1/customers/{account}/invoices", params={"limit": 100}).json()["data"]
    assert len(seen) == len(set(seen)) == len(everything) > 3
    assert seen == sorted(seen, reverse=True)


def test_invoice_filters(sim: Sim) -> None:
    account = sim.sample("overdue")["account_number"]
    overdue = sim.get(f"/v1/customers/{account}/invoices", params={"status": "overdue"}).json()[
        "data"
    ]
    assert overdue and {i["status"] for i in overdue} == {"overdue"}
    window = sim.get(
        f"/v1/customers/{account}/invoices",
        params={"period_from": "2026-09-01", "period_to": "2026-09-30"},
    ).json()["data"]
    assert all("2026-09-01" <= i["billing_period"]["start"] <= "2026-09-30" for i in window)


def test_tampered_or_foreign_cursors_are_400(sim: Sim) -> None:
    account = sim.sample("overdue")["account_number"]
    cursor = sim.get(f"/v1/customers/{account}/invoices", params={"limit": 1}).json()["next_cursor"]
    tampered = cursor[:-2] + ("AA" if not cursor.endswith("AA") else "BB")
    other = sim.sample("open_invoice")["account_number"]
    for target, value in ((account, tampered), (other, cursor), (account, "bm9wZQ")):
        response = sim.get(f"/v1/customers/{target}/invoices", params={"cursor": value})
        assert (
            response.status_code == 400 and response.json()["errors"][0]["field"] == "query.cursor"
        )


def test_bad_parameters_are_named(sim: Sim) -> None:
    response = sim.get("/v1/customers/0123456789/invoices", params={"limit": 500, "status": "late"})
    fields = {e["field"] for e in response.json()["errors"]}
    assert response.status_code == 400 and fields == {
        "path.accountNumber",
        "query.limit",
        "query.status",
    }


def test_payment_applies_oldest_first_and_replays_without_moving_money(sim: Sim) -> None:
    account = sim.sample("overdue")["account_number"]
    before = Decimal(sim.get(f"/v1/customers/{account}/balance").json()["amount_due"])
    first = sim.pay(account, "pay-key-0001", "12.34")
    assert first.status_code == 201 and first.headers["idempotent-replayed"] == "false"
    replay = sim.pay(account, "pay-key-0001", "12.34")
    assert replay.status_code == 201 and replay.headers["idempotent-replayed"] == "true"
    assert replay.json() == first.json()
    after = Decimal(sim.get(f"/v1/customers/{account}/balance").json()["amount_due"])
    assert before - after == Decimal("12.34")
    invoices = sim.get(f"/v1/customers/{account}/invoices", params={"limit": 100}).json()["data"]
    oldest = min(
        (i for i in invoices if i["status"] == "overdue"),
        key=lambda i: (i["due_date"], i["invoice_number"]),
    )
    assert first.json()["allocations"][0]["invoice_number"] == oldest["invoice_number"]
    payments = sim.get(f"/v1/customers/{account}/payments").json()["data"]
    assert payments[0]["payment_id"] == first.json()["payment_id"]


def test_same_key_other_body_is_409(sim: Sim) -> None:
    account = sim.sample("overdue")["account_number"]
    assert sim.pay(account, "pay-key-0002", "1.00").status_code == 201
    conflict = sim.pay(account, "pay-key-0002", "2.00")
    assert conflict.status_code == 409 and conflict.json()["code"] == "idempotency_conflict"


def test_currency_and_method_must_suit_the_account(sim: Sim) -> None:
    usd = sim.sample("overdue")["account_number"]
    wrong = sim.pay(usd, "pay-key-0003", "10.00", currency="VES")
    assert wrong.status_code == 422 and wrong.json()["errors"] == [
        {"field": "body.currency", "message": "the account is billed in USD"}
    ]
    ves = sim.sample("ves")["account_number"]
    zelle = sim.pay(ves, "pay-key-0004", "10.00", currency="VES", method="zelle")
    assert zelle.status_code == 422 and zelle.json()["errors"][0]["field"] == "body.method"


def test_malformed_payments_name_each_field(sim: Sim) -> None:
    account = sim.sample("overdue")["account_number"]
    response = sim.client.post(
        f"/v1/customers/{account}/payments",
        headers={**sim.auth(), "Idempotency-Key": "x"},
        json={"amount": 10.5, "currency": "USD", "extra": True},
    )
    fields = {e["field"] for e in response.json()["errors"]}
    assert response.status_code == 400
    assert fields == {"header.Idempotency-Key", "body.amount", "body.method", "body.extra"}


def test_unknown_path_and_method_are_problems(sim: Sim) -> None:
    missing = sim.get("/v2/nothing")
    assert (
        missing.status_code == 404 and missing.headers["content-type"] == "application/problem+json"
    )
    wrong = sim.client.delete("/v1/customers/1000004821/payments", headers=sim.auth())
    assert wrong.status_code == 405 and wrong.headers["allow"] == "GET, HEAD, POST"


def test_the_contract_example_customer_exists(sim: Sim) -> None:
    found = sim.get("/v1/customer-lookup", params={"phone": "+584121234567"}).json()
    assert found["account_number"] == "1000004821" and found["national_id"] == "V-12345678"
