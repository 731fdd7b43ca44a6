"""The balance is what the open invoices say, minus credit.

`amount_due` = Σ amount_due of the open and overdue invoices, `overdue_amount` = the same
over overdue ones, `net_balance` = amount_due − credit_balance. "How much do I owe?" is the
question subscribers ask most; the balance and the invoices must tell the same story.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from billing_toolkit.conformance.checks.base import Findings, Scenario, ScenarioContext
from billing_toolkit.conformance.checks.totals import decimals
from billing_toolkit.conformance.discovery import walk_invoices

UNPAID_STATUSES = frozenset({"open", "overdue"})
BALANCE_FIGURES = ("amount_due", "overdue_amount", "credit_balance", "net_balance")


def unpaid_sums(
    invoices: list[dict[str, Any]], ctx: ScenarioContext
) -> tuple[Decimal, Decimal] | None:
    """(Σ amount_due of open+overdue, Σ amount_due of overdue), None if an amount is malformed."""
    unpaid = [inv for inv in invoices if inv.get("status") in UNPAID_STATUSES]
    amounts = decimals([inv.get("amount_due") for inv in unpaid], ctx.facts)
    if amounts is None:
        return None
    overdue = sum(
        (a for inv, a in zip(unpaid, amounts, strict=True) if inv.get("status") == "overdue"),
        Decimal("0.00"),
    )
    return sum(amounts, Decimal("0.00")), overdue


def run(ctx: ScenarioContext) -> Findings:
    findings = Findings(passed_summary="balance = open invoices − credit")
    reply = ctx.session.send(ctx.call("getBalance"))
    balance = reply.json()
    findings.inspected += 1
    if reply.status != 200 or not isinstance(balance, dict):
        findings.add(f"cannot read the balance: {reply.describe()}", reply)
        return findings
    figures = decimals([balance.get(name) for name in BALANCE_FIGURES], ctx.facts)
    if figures is None:
        findings.add("the balance has a malformed amount (see the money check)", reply)
        return findings
    due, overdue, credit, net = figures
    if net != due - credit:
        findings.add(
            f"net_balance is {net} but amount_due - credit_balance is {due - credit}", reply
        )
    if balance.get("currency") != ctx.data.currency:
        findings.add(
            f"balance currency {balance.get('currency')!r} is not the account's "
            f"{ctx.data.currency!r}",
            reply,
        )
    invoices, failed_page = walk_invoices(ctx.session, ctx.facts, ctx.data.account_number)
    if failed_page is not None:
        findings.add(
            f"cannot list the invoices behind the balance: {failed_page.describe()}", failed_page
        )
        return findings
    sums = unpaid_sums(invoices, ctx)
    if sums is None:
        findings.add("an invoice has a malformed amount_due (see the money check)", reply)
        return findings
    if due != sums[0]:
        findings.add(f"amount_due is {due} but the open and overdue invoices owe {sums[0]}", reply)
    if overdue != sums[1]:
        findings.add(f"overdue_amount is {overdue} but the overdue invoices owe {sums[1]}", reply)
    return findings


SCENARIO = Scenario(
    name="balance",
    meaning=(
        "For the test account: net_balance = amount_due - credit_balance; amount_due equals "
        "the sum of amount_due over its open and overdue invoices (all pages), overdue_amount "
        "the same sum over overdue ones; the balance is in the account's currency."
    ),
    remedy=(
        "Derive the balance from the same invoice rows the invoice endpoints read (one "
        "query or one service), in decimal arithmetic, rather than from a separately "
        "maintained counter that can drift."
    ),
    run=run,
)
