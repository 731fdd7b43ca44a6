"""Fakes for the assistant's ports: a small two-tenant billing world and a keyword retriever.

The fake capabilities give the data shapes and evidence sentences of
`billing_toolkit.client.capability_flows` and `billing_toolkit.client.evidence`: scoped to
one tenant, "another customer's or tenant's resource" answers exactly like "missing", outages
are `should_escalate=True`, and every figure in `evidence_text` is the API's own string (a
derived one, such as a difference, is stated with its direction).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.turn.pipeline import AssistantPipeline
from billing_toolkit.client.due_figures import (
    arrears_data,
    arrears_evidence,
    arrears_of,
    days_until_due,
    due_evidence,
)
from billing_toolkit.client.models.billing import Balance, Invoice
from billing_toolkit.client.tool_result import ToolResult

TENANT = "fibranet"
MARIA_PHONE = "+584121234567"
JOSE_PHONE = "+584141112233"
ANA_PHONE = "+584245550000"
UNKNOWN_PHONE = "+584161234000"


def _invoice(
    number: str,
    account: str,
    status: str,
    issue: str,
    due: str,
    period: tuple[str, str],
    lines: list[tuple[str, str, str]],
    subtotal: str,
    tax: str,
    total: str,
    paid: str,
    amount_due: str,
    currency: str = "USD",
) -> dict[str, Any]:
    return {
        "invoice_number": number,
        "account_number": account,
        "status": status,
        "currency": currency,
        "billing_period": {"start": period[0], "end": period[1]},
        "issue_date": issue,
        "due_date": due,
        "line_items": [{"kind": k, "description": d, "amount": a} for k, d, a in lines],
        "subtotal": subtotal,
        "tax": tax,
        "total": total,
        "amount_paid": paid,
        "amount_due": amount_due,
        "revision": 1,
    }


def _customer(
    account: str, name: str, phone: str, national_id: str, currency: str
) -> dict[str, Any]:
    return {
        "account_number": account,
        "name": name,
        "customer_type": "individual",
        "national_id": national_id,
        "phone": phone,
        "email": None,
        "status": "active",
        "currency": currency,
    }


MARIA_CURRENT = _invoice(
    "INV-2026-004281",
    "1000004821",
    "open",
    "2026-11-05",
    "2026-11-20",
    ("2026-11-05", "2026-12-04"),
    [
        ("plan_charge", "Fibra 100 (05/11/2026 - 04/12/2026)", "28.00"),
        ("reconnection", "Reconexión", "5.00"),
        ("tax", "IVA 16%", "5.28"),
    ],
    "33.00",
    "5.28",
    "38.28",
    "0.00",
    "38.28",
)
MARIA_PREVIOUS = _invoice(
    "INV-2026-004102",
    "1000004821",
    "paid",
    "2026-10-05",
    "2026-10-20",
    ("2026-10-05", "2026-11-04"),
    [("plan_charge", "Fibra 100 (05/10/2026 - 04/11/2026)", "28.00"), ("tax", "IVA 16%", "4.48")],
    "28.00",
    "4.48",
    "32.48",
    "32.48",
    "0.00",
)
JOSE_INVOICE = _invoice(
    "INV-2026-004300",
    "1000007310",
    "paid",
    "2026-11-12",
    "2026-11-27",
    ("2026-11-12", "2026-12-11"),
    [("plan_charge", "Hogar 30", "1450.00"), ("tax", "IVA 16%", "232.00")],
    "1450.00",
    "232.00",
    "1682.00",
    "1682.00",
    "0.00",
    "VES",
)
LLANO_INVOICE = _invoice(
    "INV-2026-500123",
    "2000000001",
    "open",
    "2026-11-01",
    "2026-11-16",
    ("2026-11-01", "2026-11-30"),
    [("plan_charge", "Llano 20", "18.00")],
    "18.00",
    "0.00",
    "18.00",
    "0.00",
    "18.00",
)


@dataclass
class Account:
    customer: dict[str, Any]
    balance: dict[str, Any]
    invoices: list[dict[str, Any]]
    payment: dict[str, Any] | None
    subscription: dict[str, Any]
    earlier_payments: list[dict[str, Any]] = field(default_factory=list)
    """Payments before `payment`, newest first (what `payments` lists after it)."""


def _plan(plan_id: str, name: str, down: int, up: int, price: str, currency: str) -> dict[str, Any]:
    return {
        "plan_id": plan_id,
        "name": name,
        "download_mbps": down,
        "upload_mbps": up,
        "monthly_price": price,
        "currency": currency,
    }


CATALOGUE = {
    plan["plan_id"]: plan
    for plan in (
        _plan("PLN-FIBRA-50", "Fibra 50", 50, 25, "20.00", "USD"),
        _plan("PLN-FIBRA-100", "Fibra 100", 100, 50, "28.00", "USD"),
        _plan("PLN-FIBRA-300", "Fibra 300", 300, 150, "40.00", "USD"),
        _plan("PLN-HOGAR-30", "Hogar 30", 30, 10, "1450.00", "VES"),
    )
}


def _balance(
    account: str, currency: str, due: str, credit: str, net: str, next_due: str | None
) -> dict[str, Any]:
    return {
        "account_number": account,
        "currency": currency,
        "amount_due": due,
        "overdue_amount": "0.00",
        "credit_balance": credit,
        "net_balance": net,
        "next_due_date": next_due,
        "as_of": "2026-11-29T10:00:00Z",
    }


def _subscription(
    account: str,
    status: str,
    plan_id: str,
    start: str,
    billing_day: int,
    pending: str | None = None,
) -> dict[str, Any]:
    next_billing = f"2026-12-{billing_day:02d}"
    return {
        "account_number": account,
        "status": status,
        "plan": CATALOGUE[plan_id],
        "start_date": start,
        "billing_day": billing_day,
        "next_billing_date": next_billing,
        "pending_change": pending and {"plan_id": pending, "effective_date": next_billing},
    }


def _world() -> dict[str, dict[str, Account]]:
    maria = Account(
        customer=_customer(
            "1000004821", "María Fernanda Rodríguez", MARIA_PHONE, "V-12345678", "USD"
        ),
        balance=_balance("1000004821", "USD", "38.28", "0.00", "38.28", "2026-11-20"),
        invoices=[MARIA_CURRENT, MARIA_PREVIOUS],
        payment={
            "payment_id": "PAY-0000012345",
            "account_number": "1000004821",
            "amount": "32.48",
            "currency": "USD",
            "method": "pago_movil",
            "reference": "004512873301",
            "received_at": "2026-10-12T16:45:00Z",
            "allocations": [{"invoice_number": "INV-2026-004102", "amount": "32.48"}],
            "unapplied_amount": "0.00",
        },
        subscription=_subscription(
            "1000004821", "active", "PLN-FIBRA-100", "2024-03-20", 5, pending="PLN-FIBRA-300"
        ),
        earlier_payments=[
            {
                "payment_id": "PAY-0000011870",
                "account_number": "1000004821",
                "amount": "30.00",
                "currency": "USD",
                "method": "bank_transfer",
                "reference": "000981245512",
                "received_at": "2026-09-14T11:20:00Z",
                "allocations": [{"invoice_number": "INV-2026-003950", "amount": "30.00"}],
                "unapplied_amount": "0.00",
            }
        ],
    )
    jose = Account(
        customer=_customer("1000007310", "José Pérez", JOSE_PHONE, "V-9876543", "VES"),
        balance=_balance("1000007310", "VES", "0.00", "250.00", "-250.00", None),
        invoices=[JOSE_INVOICE],
        payment=None,
        subscription=_subscription("1000007310", "suspended", "PLN-HOGAR-30", "2025-01-12", 12),
    )
    ana = Account(
        customer=_customer("1000009999", "Ana Gómez", ANA_PHONE, "E-81234567", "USD"),
        balance=_balance("1000009999", "USD", "0.00", "0.00", "0.00", None),
        invoices=[],
        payment=None,
        subscription=_subscription("1000009999", "active", "PLN-FIBRA-50", "2026-11-20", 20),
    )
    pedro = Account(
        customer=_customer("2000000001", "Pedro Llanos", "+584269998877", "V-11222333", "USD"),
        balance={},
        invoices=[LLANO_INVOICE],
        payment=None,
        subscription={},
    )
    return {
        "fibranet": {a.customer["account_number"]: a for a in (maria, jose, ana)},
        "llanolink": {pedro.customer["account_number"]: pedro},
    }


def _money(currency: str, amount: str) -> str:
    return f"{currency} {amount}"


def _invoice_summary(inv: dict[str, Any]) -> str:
    c = inv["currency"]
    return (
        f"Invoice {inv['invoice_number']} of account {inv['account_number']}: status "
        f"{inv['status']}; period {inv['billing_period']['start']} to "
        f"{inv['billing_period']['end']}; issued {inv['issue_date']}; due {inv['due_date']}; "
        f"total {_money(c, inv['total'])}; paid {_money(c, inv['amount_paid'])}; amount due "
        f"{_money(c, inv['amount_due'])}."
    )


def _invoice_evidence(inv: dict[str, Any]) -> str:
    c = inv["currency"]
    lines = "; ".join(
        f'{li["kind"]} "{li["description"]}" {_money(c, li["amount"])}' for li in inv["line_items"]
    )
    return (
        f"{_invoice_summary(inv)} Line items: {lines}. Subtotal {_money(c, inv['subtotal'])}; "
        f"tax {_money(c, inv['tax'])}; total {_money(c, inv['total'])}; revision 1."
    )


def _direction(difference: Decimal, currency: str) -> str:
    if difference > 0:
        return f"increased by {_money(currency, str(difference))}"
    if difference < 0:
        return f"decreased by {_money(currency, str(-difference))}"
    return "did not change"


def _by_kind(inv: dict[str, Any]) -> dict[str, Decimal]:
    totals: dict[str, Decimal] = {}
    for line in inv["line_items"]:
        totals[line["kind"]] = totals.get(line["kind"], Decimal("0.00")) + Decimal(line["amount"])
    return totals


def _bill_change(invoices: list[dict[str, Any]]) -> ToolResult:
    """The shape `client/capability_flows.py` gives `bill_change` (latest vs previous)."""
    if not invoices:
        return ToolResult("bill_change", False, error="invoice_not_found: no invoices")
    latest = invoices[0]
    if len(invoices) == 1:
        text = (
            f"Account {latest['account_number']} has no invoice before "
            f"{latest['invoice_number']}: there is no earlier invoice to compare it with."
        )
        return ToolResult("bill_change", True, text, {"latest": latest, "previous": None})
    previous, c = invoices[1], latest["currency"]
    now, before = _by_kind(latest), _by_kind(previous)
    difference = Decimal(latest["total"]) - Decimal(previous["total"])
    changed = {k: now[k] - before[k] for k in now if k in before and now[k] != before[k]}
    parts = [f"the total {_direction(difference, c)} (computed)"]
    parts += [f"new line {k} {_money(c, str(now[k]))}" for k in now if k not in before]
    parts += [
        f"line no longer billed {k} {_money(c, str(before[k]))}" for k in before if k not in now
    ]
    parts += [
        f"{k} went from {_money(c, str(before[k]))} to {_money(c, str(now[k]))}, "
        f"{_direction(d, c)} (computed)"
        for k, d in changed.items()
    ]
    text = (
        f"Comparing invoice {latest['invoice_number']} (issued {latest['issue_date']}, total "
        f"{_money(c, latest['total'])}) with the previous invoice "
        f"{previous['invoice_number']} (issued {previous['issue_date']}, total "
        f"{_money(c, previous['total'])}) of account {latest['account_number']}: "
        f"{'; '.join(parts)}."
    )
    data = {
        "latest": latest,
        "previous": previous,
        "total_difference": str(difference),
        "appeared": [k for k in now if k not in before],
        "disappeared": [k for k in before if k not in now],
        "changed": {k: str(d) for k, d in changed.items()},
    }
    return ToolResult("bill_change", True, text, data)


def _customer_evidence(data: dict[str, Any]) -> str:
    return (
        f"Customer account {data['account_number']}: name {data['name']}; national ID "
        f"{data['national_id']}; phone {data['phone']}; status {data['status']}; billing "
        f"currency {data['currency']}."
    )


def _balance_evidence(data: dict[str, Any]) -> str:
    c = data["currency"]
    due = (
        f"next due date {data['next_due_date']}"
        if data["next_due_date"]
        else "no open invoice is due"
    )
    return (
        f"Balance of account {data['account_number']} as of {data['as_of']}: amount due "
        f"{_money(c, data['amount_due'])}; overdue {_money(c, data['overdue_amount'])}; "
        f"credit {_money(c, data['credit_balance'])}; net balance "
        f"{_money(c, data['net_balance'])}; {due}."
    )


def _payment_evidence(account_number: str, payment: dict[str, Any] | None) -> str:
    if payment is None:
        return f"Account {account_number} has no payments on record."
    c = payment["currency"]
    applied = (
        "; ".join(
            f"{_money(c, a['amount'])} to {a['invoice_number']}" for a in payment["allocations"]
        )
        or "nothing to an invoice"
    )
    return (
        f"Last payment of account {account_number}: {payment['payment_id']} of "
        f"{_money(c, payment['amount'])} by {payment['method']} (reference "
        f"{payment['reference']}), received {payment['received_at']}; applied {applied}; "
        f"unapplied (kept as credit) {_money(c, payment['unapplied_amount'])}."
    )


def _plan_text(plan: dict[str, Any]) -> str:
    return (
        f'{plan["plan_id"]} "{plan["name"]}" ({plan["download_mbps"]}/{plan["upload_mbps"]} '
        f"Mbps, {_money(plan['currency'], plan['monthly_price'])} per month)"
    )


def _plan_evidence(sub: dict[str, Any], pending: dict[str, Any] | None) -> str:
    text = (
        f"Account {sub['account_number']} is on plan {_plan_text(sub['plan'])} since "
        f"{sub['start_date']}; subscription status {sub['status']}; billing day "
        f"{sub['billing_day']}; next billing date {sub['next_billing_date']}."
    )
    change = sub["pending_change"]
    if change is None:
        return text + " No plan change is scheduled."
    target = _plan_text(pending) if pending else change["plan_id"]
    return text + f" Scheduled plan change to {target} on {change['effective_date']}."


@dataclass
class FakeCapabilities:
    """The client's capability layer for one tenant, over the fake world."""

    tenant: str = TENANT
    outages: set[str] = field(default_factory=set)
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = field(default_factory=list)
    world: dict[str, dict[str, Account]] = field(default_factory=_world)

    def _accounts(self) -> dict[str, Account]:
        return self.world[self.tenant]

    def _answer(
        self,
        capability: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        make: Callable[[], ToolResult | None],
    ) -> ToolResult:
        self.calls.append((capability, args, kwargs))
        if capability in self.outages:
            return ToolResult(
                capability,
                ok=False,
                error="unavailable: HTTP 503 after 3 attempts",
                should_escalate=True,
            )
        return make() or ToolResult(capability, ok=False, error="not_found: no such resource")

    def _customer(self, capability: str, key: str, value: str) -> ToolResult:
        found = next(
            (a.customer for a in self._accounts().values() if a.customer[key] == value), None
        )
        return self._answer(
            capability,
            (value,),
            {},
            lambda: (
                ToolResult(capability, True, _customer_evidence(found), found) if found else None
            ),
        )

    def customer_by_phone(self, phone: str) -> ToolResult:
        return self._customer("customer_by_phone", "phone", phone)

    def customer_by_account(self, account_number: str) -> ToolResult:
        return self._customer("customer_by_account", "account_number", account_number)

    def customer_by_national_id(self, national_id: str) -> ToolResult:
        return self._customer("customer_by_national_id", "national_id", national_id)

    def balance(self, account_number: str) -> ToolResult:
        stored = self._accounts()[account_number].balance
        model = Balance.model_validate(stored)
        data = {**stored, "days_until_due": days_until_due(model)}
        text = _balance_evidence(stored) + due_evidence(model)
        return self._answer(
            "balance", (account_number,), {}, lambda: ToolResult("balance", True, text, data)
        )

    def invoices(
        self, account_number: str, *, status: str | None = None, limit: int = 6
    ) -> ToolResult:
        found = [
            i
            for i in self._accounts()[account_number].invoices
            if status is None or i["status"] == status
        ][:limit]
        text = " ".join(_invoice_summary(i) for i in found) or (
            f"Account {account_number} has no invoices."
        )
        data = {
            "account_number": account_number,
            "status": status,
            "invoices": found,
            "more": False,
        }
        return self._answer(
            "invoices",
            (account_number,),
            {"status": status, "limit": limit},
            lambda: ToolResult("invoices", True, text, data),
        )

    def invoice_by_number(self, account_number: str, invoice_number: str) -> ToolResult:
        found = next(
            (
                i
                for i in self._accounts()[account_number].invoices
                if i["invoice_number"] == invoice_number
            ),
            None,
        )
        return self._answer(
            "invoice_by_number",
            (account_number,),
            {"invoice_number": invoice_number},
            lambda: (
                ToolResult("invoice_by_number", True, _invoice_evidence(found), found)
                if found
                else None
            ),
        )

    def last_payment(self, account_number: str) -> ToolResult:
        payment = self._accounts()[account_number].payment
        data = {"account_number": account_number, "payment": payment}
        return self._answer(
            "last_payment",
            (account_number,),
            {},
            lambda: ToolResult(
                "last_payment", True, _payment_evidence(account_number, payment), data
            ),
        )

    def payments(self, account_number: str, *, limit: int = 12) -> ToolResult:
        account = self._accounts()[account_number]
        found = ([account.payment] if account.payment else []) + account.earlier_payments
        found = found[:limit]
        text = " ".join(_payment_evidence(account_number, p) for p in found) or (
            f"Account {account_number} has no payments on record."
        )
        data = {"account_number": account_number, "payments": found, "more": False}
        return self._answer(
            "payments",
            (account_number,),
            {"limit": limit},
            lambda: ToolResult("payments", True, text, data),
        )

    def plan(self, account_number: str) -> ToolResult:
        sub = self._accounts()[account_number].subscription
        change = sub["pending_change"]
        pending = CATALOGUE.get(change["plan_id"]) if change else None
        data = {"subscription": sub, "pending_plan": pending}
        return self._answer(
            "plan",
            (account_number,),
            {},
            lambda: ToolResult("plan", True, _plan_evidence(sub, pending), data),
        )

    def arrears(self, account_number: str) -> ToolResult:
        """The real computation (`client/due_figures.py`) over the fake account's data."""
        account = self._accounts()[account_number]
        found = arrears_of(
            Balance.model_validate(account.balance),
            [Invoice.model_validate(i) for i in account.invoices],
        )
        return self._answer(
            "arrears",
            (account_number,),
            {},
            lambda: ToolResult("arrears", True, arrears_evidence(found), arrears_data(found)),
        )

    def bill_change(self, account_number: str, invoice_number: str | None = None) -> ToolResult:
        invoices = self._accounts()[account_number].invoices
        numbers = [i["invoice_number"] for i in invoices]
        if invoice_number is not None:  # that one and those before it; none if not its own
            at = numbers.index(invoice_number) if invoice_number in numbers else len(invoices)
            invoices = invoices[at:]
        params = {} if invoice_number is None else {"invoice_number": invoice_number}
        return self._answer(
            "bill_change", (account_number,), params, lambda: _bill_change(invoices)
        )

    def called(self, capability: str) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
        return [(args, kwargs) for name, args, kwargs in self.calls if name == capability]


@dataclass(frozen=True)
class FakeChunk:
    chunk_id: str
    text: str
    language: str
    vector_score: float | None = None
    matched_by_text: bool = False
    fused_rank: int = 0
    kind: str = "policy"
    text_rank: int | None = None
    document: str = "fake.md"
    heading_path: tuple[str, ...] = ()


KB = {
    "es-late-fee": (
        "es",
        (
            "## Recargo por mora\nSi una factura no se paga antes de su fecha de "
            "vencimiento, se agrega una sola vez un recargo por mora del 5% del "
            "monto pendiente. El recargo no lleva IVA."
        ),
    ),
    "en-late-fee": (
        "en",
        (
            "## Late fee\nIf an invoice is not paid by its due date, a one-time "
            "late fee of 5% of the amount still due is added. It is not taxed."
        ),
    ),
    "es-zelle": (
        "es",
        (
            "## Zelle\nPuedes pagar por Zelle solo si tu cuenta está en dólares (USD). "
            "Envía el pago y guarda la referencia."
        ),
    ),
    "es-pago-movil": (
        "es",
        ("## Pago Móvil\nPaga por Pago Móvil al teléfono 0414-3287410, RIF J-12345678-9, Banesco."),
    ),
    "es-invoice-example": (
        "es",
        (
            "## Cómo leer tu factura\nEjemplo de factura: INV-2026-000123. "
            "Cada factura muestra el plan, el IVA y el total a pagar."
        ),
    ),
}
_WORD = re.compile(r"[a-z]{4,}")


@dataclass
class FakeRetriever:
    """Keyword overlap standing in for hybrid retrieval: deterministic, ties on chunk id."""

    chunks: dict[str, tuple[str, str]] = field(default_factory=lambda: dict(KB))
    queries: list[str] = field(default_factory=list)

    def search(self, query: str, top_k: int = 6) -> list[FakeChunk]:
        self.queries.append(query)
        words = set(_WORD.findall(fold(query)))
        scored = []
        for chunk_id, (language, text) in self.chunks.items():
            overlap = words & set(_WORD.findall(fold(text)))
            if overlap:
                scored.append(
                    (
                        -len(overlap),
                        chunk_id,
                        FakeChunk(
                            chunk_id,
                            text,
                            language,
                            vector_score=len(overlap) / max(len(words), 1),
                            matched_by_text=True,
                        ),
                    )
                )
        return [chunk for _, _, chunk in sorted(scored)[:top_k]]


class SteppingClock:
    """A clock that advances one second per reading: deterministic timestamps."""

    def __init__(self) -> None:
        self._now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self._now += timedelta(seconds=1)
        return self._now


PipelineFactory = Callable[..., AssistantPipeline]


def yaml_file(folder: Path, text: str) -> Path:
    """A YAML file with `text`, for the loaders' error tests."""
    path = folder / "file.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def evaluation_args(**overrides: Any) -> argparse.Namespace:
    """The arguments of `billing-assistant eval` on the shipped suite: the template narrator,
    every narration fault, seed 42, 40 customers, the shipped intent model (overridable)."""
    from billing_toolkit.assistant.evaluation.scenarios import SCENARIOS

    settings: dict[str, Any] = {
        "scenarios": SCENARIOS,
        "tenant": "fibranet",
        "narrator": "template",
        "no_faults": False,
        "seed": 42,
        "customers": 40,
        "intent_model": None,
    }
    return argparse.Namespace(**{**settings, **overrides})
