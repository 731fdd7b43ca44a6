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
from typing import Any

from billing_toolkit.conformance.calls import call
from billing_toolkit.conformance.checks.base import ScenarioContext
from billing_toolkit.conformance.discovery import PAGE_SIZE, iterate_pages, walk_invoices
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.rules.needs import Need, Scope, unmet
from billing_toolkit.conformance.rules.observations import build_ledger
from billing_toolkit.contract.formats import IdentifierFormat

MIN_ACCOUNTS = 6
MAX_ACCOUNTS = 12
MAX_LOOKUPS = 150
STEPS = (1, -1, 2, -2, 3, -3)
ACCOUNT_READS = ("getCustomer", "getSubscription", "getBalance")


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


def _unmet(ctx: ScenarioContext, exchanges: list[Exchange]) -> list[Need]:
    """The discoverable needs the exchanges (the run's so far, or one lookup) never showed."""
    ledger = build_ledger(exchanges, ctx.facts, ctx.settings.other_tenant_key)
    return [need for need in unmet(ledger, ctx.facts) if need.scope is not Scope.RUN]


def discover_related(ctx: ScenarioContext) -> tuple[str, ...]:
    """Other accounts of the tenant met through neighbouring invoice numbers: the first
    `MIN_ACCOUNTS`, then, while some case a rule needs (`rules.needs`) was not seen, those
    whose invoice shows such a case, or any account while a case only a whole account shows
    is missing, until every case was seen or the budget (`MAX_ACCOUNTS`, `MAX_LOOKUPS`) is
    spent. Each is read whole; what none showed is judged not exercised (`rules.needs`)."""
    queue = [_newest_first(str(i["invoice_number"])) for i in ctx.data.invoices]
    heapq.heapify(queue)
    asked = {number for _, number in queue}
    accounts: list[str] = []
    known = {ctx.data.account_number}
    lookups = 0
    missing = _unmet(ctx, ctx.session.exchanges)
    while queue and lookups < MAX_LOOKUPS:
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
            if len(accounts) < MIN_ACCOUNTS or (
                len(accounts) < MAX_ACCOUNTS and _worth_reading(ctx, reply, missing)
            ):
                known.add(owner)
                accounts.append(owner)
                for invoice in read_account(ctx, owner):
                    heapq.heappush(queue, _newest_first(str(invoice.get("invoice_number"))))
                missing = _unmet(ctx, ctx.session.exchanges)
            else:
                heapq.heappush(queue, _newest_first(number))
    return tuple(accounts)


def _worth_reading(ctx: ScenarioContext, lookup: Exchange, missing: list[Need]) -> bool:
    """The account of `lookup` may show a missing case: its invoice shows one, or a case
    only a whole account can show is still missing."""
    if any(need.scope is Scope.ACCOUNT for need in missing):
        return True
    shown = {need.description for need in _unmet(ctx, [lookup])}
    return any(need.description not in shown for need in missing)
