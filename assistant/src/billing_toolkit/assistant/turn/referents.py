"""What a reply showed, kept for the next turn; what "esa", "la anterior" point back to.

After a reply, the conversation keeps the invoices (and the payment, the account) it showed,
for `REFERENT_TTL`: "¿y qué trae esa?" then means the invoice just shown. Resolution is a
pure rule over those referents and the subscriber's own invoices (newest first):
- "esa" / "that one": the one invoice shown; several shown → ask which;
- "la primera" / "la segunda": by the order shown (a list, a labelled choice);
- "la otra" / "the other one": of two shown, the one not shown first (of one, a question);
- "la anterior" / "the previous one": the invoice issued before the one shown ("la factura
  anterior" with nothing shown: the one before the newest).
Nothing live to point at → ask which. Bias: ask rather than guess — showing the wrong
invoice reads as a wrong figure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from billing_toolkit.assistant.store.model import Referent
from billing_toolkit.assistant.understanding.referring import Pointer
from billing_toolkit.client.tool_result import ToolResult

FILED_REPORT = "payment_report"
"""The kind of a pending report the reply showed (just filed, or its status asked): a
correction the next message makes is of that report ("no, fue ayer"), never a new one, and
"did you get my payment?" asks its status — and it is nothing "esa" points at."""
REFERENT_TTL = timedelta(minutes=30)
"""How long a reply's invoices may be pointed back to: a chat's attention span, not a day."""


def _invoices_shown(result: ToolResult) -> list[str]:
    data: Mapping[str, Any] = result.data or {}
    if result.capability == "invoice_by_number":
        return [str(data["invoice_number"])]
    if result.capability == "invoices":
        return [str(i["invoice_number"]) for i in data.get("invoices", [])]
    if result.capability == "bill_change":
        return [str(data[k]["invoice_number"]) for k in ("latest", "previous") if data.get(k)]
    return []


def _pending_report(result: ToolResult) -> str | None:
    """The id of the pending report `result` shows: the one just filed, or the newest asked
    about while it waits for verification."""
    data: Mapping[str, Any] = result.data or {}
    if result.capability == "latest_payment_report":
        data = data.get("report") or {}
    elif result.capability != "report_payment":
        return None
    return str(data["report_id"]) if data.get("status") == "pending_verification" else None


def shown_by(results: Sequence[ToolResult]) -> tuple[Referent, ...]:
    """The invoices, payments, account and rate the results put in front of the subscriber."""
    shown: list[Referent] = []
    for result in results:
        if not result.ok:
            continue
        shown += [Referent("invoice", number) for number in _invoices_shown(result)]
        payment = (
            (result.data or {}).get("payment") if result.capability == "last_payment" else None
        )
        if payment:
            shown.append(Referent("payment", str(payment["payment_id"])))
        if result.capability == "payments":
            shown += [
                Referent("payment", str(p["payment_id"]))
                for p in (result.data or {}).get("payments", [])
            ]
        if result.capability == "balance" and result.data:
            shown.append(Referent("account", str(result.data["account_number"])))
        if result.capability == "exchange_rate" and result.data:  # "¿y ayer?" asks another day's
            shown.append(Referent("rate", str(result.data["date"])))
        report = _pending_report(result)
        if report is not None:
            shown.append(Referent(FILED_REPORT, report))
    return tuple(dict.fromkeys(shown))


def resolve(pointer: Pointer, shown: Sequence[str], own: Sequence[str]) -> list[str]:
    """The invoice number(s) `pointer` may mean: one is the answer, several or none a
    question. `shown` are the live invoice referents in order; `own` the subscriber's
    invoice numbers, newest first."""
    if pointer is Pointer.FIRST:
        return list(shown[:1])
    if pointer is Pointer.SECOND:
        return list(shown[1:2])
    if pointer is Pointer.OTHER:
        return list(shown[1:2]) if len(shown) == 2 else list(shown) if len(shown) > 2 else []
    if pointer is Pointer.PREVIOUS:
        if not shown:  # "the previous invoice", nothing shown: the one before the newest
            return list(own[1:2])
        if len(shown) != 1 or shown[0] not in own:
            return list(shown)
        after = own.index(shown[0]) + 1
        return list(own[after : after + 1])
    return list(shown)
