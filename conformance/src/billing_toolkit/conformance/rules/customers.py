"""`customer.status`: the status the assistant reads out is the one the invoices imply.

The contract's prose: `suspended` lost service for non-payment, cut 10 days after an
unpaid due date. So a customer record is compared with a complete invoice walk of the same
account and epoch (no payment booked between) on the day the API says it is; a
subscription's status with the customer record of the same account and epoch. Bias: with
no walk or no day near it, a record is not judged.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from billing_toolkit.conformance.checks.base import Findings
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.rules.base import RuleJudge, report
from billing_toolkit.conformance.rules.invoices import iso_date, today_at
from billing_toolkit.conformance.rules.observations import Ledger
from billing_toolkit.conformance.rules.subscriptions import CUSTOMER_READS, subscriptions
from billing_toolkit.conformance.rules.walks import walks_by_state

SUSPENDED_AFTER = timedelta(days=10)


def _status_problem(status: Any, invoices: list[dict[str, Any]], today: Any) -> str | None:
    overdue = [i for i in invoices if i.get("status") == "overdue"]
    if status == "suspended" and not overdue:
        return "is suspended but no invoice of the account is overdue"
    for invoice in overdue:
        due = iso_date(invoice.get("due_date"))
        if status == "active" and due is not None and due + SUSPENDED_AFTER <= today:
            return (
                f"is active but {invoice.get('invoice_number')} is unpaid since {due}, "
                f"{(today - due).days} days past due (service is cut after 10)"
            )
    return None


def judge_status(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    by_state = walks_by_state(ledger, "listInvoices")
    today = today_at(ledger)
    statuses: dict[tuple[str, int], Any] = {}
    for seen in ledger.of(*CUSTOMER_READS):
        body = seen.body()
        if not isinstance(body, dict):
            continue
        account = str(body.get("account_number"))
        statuses[(account, seen.epoch)] = body.get("status")
        walk, day = by_state.get((account, seen.epoch)), today.get(seen.index)
        if walk is None or day is None:
            continue
        problem = _status_problem(body.get("status"), walk.items, day)
        report(findings, seen, [] if problem is None else [f"{account} {problem}"])
    for seen, body in subscriptions(ledger):
        expected, shown = statuses.get((seen.account or "", seen.epoch)), body.get("status")
        if expected is not None:
            differs = f"the subscription is {shown!r} but the customer is {expected!r}"
            report(findings, seen, [differs] if shown != expected else [])
    return findings


JUDGES = (RuleJudge("customer.status", judge_status),)
