"""Contract-valid bodies and answers for the client's unit tests (respx serves them).

Figures mirror the contract's examples, so a test that checks evidence text checks the
exact digits a real answer would carry.
"""

from __future__ import annotations

from typing import Any

import httpx

BASE_URL = "http://127.0.0.1:8080"
"""The contract's server URL: openapi-core matches requests against it."""

API_KEY = "test-key-fibranet"
ACCOUNT = "1000004821"
OTHER_ACCOUNT = "1000009999"


def ok(body: Any, status: int = 200, **headers: str) -> httpx.Response:
    return httpx.Response(status, json=body, headers={"X-Request-Id": "req-test", **headers})


def problem(status: int, code: str, *, detail: str = "nope", **headers: str) -> httpx.Response:
    """A problem+json answer; header keywords use `_` for `-` (`Retry_After="3"`)."""
    body = {
        "type": f"https://billing.example.com/problems/{code}",
        "title": code.replace("_", " ").capitalize(),
        "status": status,
        "detail": detail,
        "code": code,
        "request_id": "req-problem",
    }
    return httpx.Response(
        status,
        json=body,
        headers={
            "Content-Type": "application/problem+json",
            "X-Request-Id": "req-problem",
            **{name.replace("_", "-"): value for name, value in headers.items()},
        },
    )


def customer(account: str = ACCOUNT, **overrides: Any) -> dict[str, Any]:
    return {
        "account_number": account,
        "name": "María Fernanda Rodríguez",
        "customer_type": "individual",
        "national_id": "V-12345678",
        "phone": "+584121234567",
        "email": "mfrodriguez@example.com",
        "status": "active",
        "currency": "USD",
        "service_address": {
            "line1": "Av. Francisco de Miranda, Edif. Parque Cristal, Piso 4, Apto 4-B",
            "city": "Caracas",
            "state": "Miranda",
            "postal_code": "1060",
        },
        "created_at": "2024-03-18T14:02:11Z",
        **overrides,
    }


def balance(account: str = ACCOUNT, **overrides: Any) -> dict[str, Any]:
    return {
        "account_number": account,
        "currency": "USD",
        "amount_due": "45.00",
        "overdue_amount": "0.00",
        "credit_balance": "0.00",
        "net_balance": "45.00",
        "next_due_date": "2026-12-10",
        "as_of": "2026-11-29T10:00:00Z",
        **overrides,
    }


def line(kind: str, description: str, amount: str) -> dict[str, str]:
    return {"kind": kind, "description": description, "amount": amount}


def invoice(
    number: str = "INV-2026-004281",
    *,
    account: str = ACCOUNT,
    lines: list[dict[str, str]] | None = None,
    issue_date: str = "2026-11-05",
    status: str = "open",
    currency: str = "USD",
    amount_paid: str = "0.00",
    **overrides: Any,
) -> dict[str, Any]:
    """An invoice whose subtotal, tax and totals follow from its lines (contract invariants)."""
    from decimal import Decimal

    lines = lines or [
        line("plan_charge", "Fibra 100 (05/11/2026 - 04/12/2026)", "28.00"),
        line("tax", "IVA 16%", "4.48"),
    ]
    subtotal = sum((Decimal(x["amount"]) for x in lines if x["kind"] != "tax"), Decimal("0.00"))
    tax = sum((Decimal(x["amount"]) for x in lines if x["kind"] == "tax"), Decimal("0.00"))
    total = subtotal + tax
    return {
        "invoice_number": number,
        "account_number": account,
        "status": status,
        "currency": currency,
        "billing_period": {"start": issue_date, "end": "2026-12-04"},
        "issue_date": issue_date,
        "due_date": "2026-11-20",
        "line_items": lines,
        "subtotal": f"{subtotal:.2f}",
        "tax": f"{tax:.2f}",
        "total": f"{total:.2f}",
        "amount_paid": amount_paid,
        "amount_due": f"{total - Decimal(amount_paid):.2f}",
        "revision": 1,
        **overrides,
    }


def page(items: list[dict[str, Any]], next_cursor: str | None = None) -> dict[str, Any]:
    return {"data": items, "next_cursor": next_cursor}


def payment(account: str = ACCOUNT, **overrides: Any) -> dict[str, Any]:
    return {
        "payment_id": "PAY-0000012345",
        "account_number": account,
        "amount": "32.48",
        "currency": "USD",
        "method": "pago_movil",
        "reference": "004512873301",
        "received_at": "2026-11-12T16:45:00Z",
        "allocations": [{"invoice_number": "INV-2026-004281", "amount": "32.48"}],
        "unapplied_amount": "0.00",
        **overrides,
    }


def plan(
    plan_id: str = "PLN-FIBRA-100",
    name: str = "Fibra 100",
    down: int = 100,
    up: int = 50,
    price: str = "28.00",
) -> dict[str, Any]:
    return {
        "plan_id": plan_id,
        "name": name,
        "download_mbps": down,
        "upload_mbps": up,
        "monthly_price": price,
        "currency": "USD",
    }


def subscription(account: str = ACCOUNT, pending: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "account_number": account,
        "status": "active",
        "plan": plan(),
        "start_date": "2024-03-20",
        "billing_day": 5,
        "next_billing_date": "2026-12-05",
        "pending_change": pending,
    }
