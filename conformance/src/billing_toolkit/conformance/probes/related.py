"""More accounts of the tenant under test, found through the API, so every rule has data.

The named test account rarely shows every rule: it may have only two-line invoices, no
credit, nothing overdue, no partial payment, the tenant's main currency only. The API has
no customer listing, but invoice numbers are one sequence per tenant, so the numbers next
to the test account's invoices are mostly other accounts' invoices of the same billing run.
The kit asks for a bounded number of them and reads each new account it meets (customer,
subscription, balance, every invoice and payment), which the rule judges then judge like
the test account. Bias: stay bounded (a few dozen lookups), never leave the tenant.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from billing_toolkit.conformance.calls import call
from billing_toolkit.conformance.checks.base import ScenarioContext
from billing_toolkit.conformance.discovery import PAGE_SIZE, iterate_pages, walk_invoices
from billing_toolkit.contract.formats import IdentifierFormat

MIN_ACCOUNTS = 6
MAX_ACCOUNTS = 12
MAX_LOOKUPS = 150
STEPS = (1, -1, 2, -2, 3, -3)
ACCOUNT_READS = ("getCustomer", "getSubscription", "getBalance")
FEATURES: dict[str, Callable[[dict[str, Any]], bool]] = {
    "an invoice with 3+ lines": lambda i: len(i.get("line_items") or []) >= 3,
    "an overdue invoice": lambda i: i.get("status") == "overdue",
    "a partially paid invoice": lambda i: i.get("amount_paid") not in ("0.00", i.get("total")),
    "a voided invoice": lambda i: i.get("status") == "void",
}
"""What the rules need to see on some invoice; the scan stops once every one was seen."""
FEATURE_RULES: dict[str, tuple[str, ...]] = {
    "an invoice with 3+ lines": ("invoice.arithmetic",),
    "an overdue invoice": ("invoice.status", "balance.amount_due"),
    "a partially paid invoice": ("invoice.status",),
    "a voided invoice": ("invoice.status",),
}
"""Feature → the rules whose report says when no invoice of the run showed it."""


@dataclass(frozen=True)
class Related:
    """The accounts discovery added, and the features no invoice it saw showed."""

    accounts: tuple[str, ...]
    missing: tuple[str, ...]

    def notes(self) -> dict[str, str]:
        """Rule id → what data the run lacked for it, for the rule's report row."""
        lacking: dict[str, list[str]] = {}
        for feature in self.missing:
            for rule_id in FEATURE_RULES[feature]:
                lacking.setdefault(rule_id, []).append(feature)
        searched = len(self.accounts) + 1
        return {
            rule_id: f"no {', '.join(f.removeprefix('an ').removeprefix('a ') for f in found)}"
            f" among the {searched} accounts read"
            for rule_id, found in lacking.items()
        }


def neighbours(number: str) -> list[str]:
    """Invoice numbers a few steps from `number` in its year's sequence."""
    prefix, year, sequence = number.split("-")
    width = len(sequence)
    found = []
    for step in STEPS:
        value = int(sequence) + step
        if 0 < value < 10**width:
            found.append(f"{prefix}-{year}-{value:0{width}d}")
    return found


def read_account(ctx: ScenarioContext, account: str) -> list[dict[str, Any]]:
    """Read everything of `account` the rules relate: record, subscription, balance, every
    invoice and every payment (recorded by the session for the judges); its invoices."""
    known = {IdentifierFormat.ACCOUNT_NUMBER: account}
    for operation_id in ACCOUNT_READS:
        if operation_id in ctx.facts.contract.operations:
            ctx.session.send(call(ctx.facts, operation_id, known))
    invoices, _ = walk_invoices(ctx.session, ctx.facts, account)
    if "listPayments" in ctx.facts.contract.operations:
        iterate_pages(ctx.session, ctx.facts, account, PAGE_SIZE, operation_id="listPayments")
    return invoices


def _newest_first(number: str) -> tuple[str, str]:
    """Heap order for invoice numbers: newest first (recent bills are the overdue ones)."""
    return "".join(chr(0x10FFFF - ord(c)) for c in number), number


def missing_features(invoices: list[dict[str, Any]]) -> list[str]:
    return [name for name, shows in FEATURES.items() if not any(map(shows, invoices))]


def discover_related(ctx: ScenarioContext) -> Related:
    """Other accounts of the tenant met through neighbouring invoice numbers: the first
    `MIN_ACCOUNTS`, then only those whose invoice shows a feature no invoice showed yet,
    until every feature was seen or the lookup budget is spent. Each is read whole."""
    seen_invoices = list(ctx.data.invoices)
    queue = [_newest_first(str(i["invoice_number"])) for i in seen_invoices]
    heapq.heapify(queue)
    asked = {number for _, number in queue}
    accounts: list[str] = []
    known = {ctx.data.account_number}
    lookups = 0
    while queue and lookups < MAX_LOOKUPS:
        missing = missing_features(seen_invoices)
        if not missing and len(accounts) >= MIN_ACCOUNTS:
            break
        for number in neighbours(heapq.heappop(queue)[1]):
            if number in asked or lookups >= MAX_LOOKUPS:
                continue
            asked.add(number)
            lookups += 1
            reply = ctx.session.send(
                call(ctx.facts, "getInvoice", {IdentifierFormat.INVOICE_NUMBER: number})
            )
            body = reply.json()
            owner = body.get("account_number") if isinstance(body, dict) else None
            if reply.status != 200 or not isinstance(owner, str) or owner in known:
                continue
            shows_missing = any(FEATURES[name](body) for name in missing)
            if len(accounts) < MIN_ACCOUNTS or (shows_missing and len(accounts) < MAX_ACCOUNTS):
                known.add(owner)
                accounts.append(owner)
                more = read_account(ctx, owner)
                seen_invoices += more
                for invoice in more:
                    heapq.heappush(queue, _newest_first(str(invoice.get("invoice_number"))))
            else:
                heapq.heappush(queue, _newest_first(number))
    return Related(tuple(accounts), tuple(missing_features(seen_invoices)))
