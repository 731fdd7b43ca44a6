"""The balance identities, on every balance response the run saw.

`balance.net` needs one response; `balance.amount_due` and `balance.next_due_date` need the
account's complete, unfiltered invoice walk at the same epoch (no payment booked between),
which discovery, the re-read after the writes and the stateful fuzzing provide.
"""

from __future__ import annotations

from decimal import Decimal

from billing_toolkit.conformance.checks.base import Findings
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.rules.base import RuleJudge, amounts
from billing_toolkit.conformance.rules.observations import Ledger
from billing_toolkit.conformance.rules.walks import walks_by_state

ZERO = Decimal("0.00")


def judge_net(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    for seen in ledger.of("getBalance"):
        body = seen.body()
        names = ("amount_due", "credit_balance", "net_balance")
        figures = amounts([body.get(n) for n in names], facts) if isinstance(body, dict) else None
        if figures is None:
            continue
        findings.inspected += 1
        due, credit, net = figures
        if net != due - credit:
            findings.add(
                f"{seen.exchange.describe()}: net_balance is {net} but amount_due − "
                f"credit_balance is {due - credit}",
                seen.exchange,
            )
    return findings


def _pairs(ledger: Ledger):  # type: ignore[no-untyped-def]
    """(balance observation, invoices of a complete walk at the same account and epoch)."""
    by_state = walks_by_state(ledger, "listInvoices")
    for seen in ledger.of("getBalance"):
        walk = by_state.get((seen.account or "", seen.epoch))
        body = seen.body()
        if walk is not None and isinstance(body, dict):
            yield seen, body, walk.items


def judge_amount_due(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    for seen, body, invoices in _pairs(ledger):
        unpaid = [i for i in invoices if i.get("status") in ("open", "overdue")]
        owed = amounts([i.get("amount_due") for i in unpaid], facts)
        figures = amounts([body.get("amount_due"), body.get("overdue_amount")], facts)
        if owed is None or figures is None:
            continue
        findings.inspected += 1
        overdue = sum(
            (a for i, a in zip(unpaid, owed, strict=True) if i.get("status") == "overdue"), ZERO
        )
        due, overdue_amount = figures
        if due != sum(owed, ZERO):
            findings.add(
                f"{seen.exchange.describe()}: amount_due is {due} but the open and overdue "
                f"invoices listed at the same moment owe {sum(owed, ZERO)}",
                seen.exchange,
            )
        if overdue_amount != overdue:
            findings.add(
                f"{seen.exchange.describe()}: overdue_amount is {overdue_amount} but the "
                f"overdue invoices owe {overdue}",
                seen.exchange,
            )
    return findings


def judge_next_due_date(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    for seen, body, invoices in _pairs(ledger):
        due_dates = sorted(str(i.get("due_date")) for i in invoices if i.get("status") == "open")
        expected = due_dates[0] if due_dates else None
        findings.inspected += 1
        if body.get("next_due_date") != expected:
            findings.add(
                f"{seen.exchange.describe()}: next_due_date is {body.get('next_due_date')!r} "
                f"but the earliest due date of the open invoices is {expected!r}",
                seen.exchange,
            )
    return findings


JUDGES = (
    RuleJudge("balance.net", judge_net),
    RuleJudge("balance.amount_due", judge_amount_due),
    RuleJudge("balance.next_due_date", judge_next_due_date),
)
