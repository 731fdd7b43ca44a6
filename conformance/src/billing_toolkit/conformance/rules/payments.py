"""`payment.allocation` on every payment the run saw: created, replayed or listed.

The sum identity reuses `checks/totals.py`; beyond it, each allocation must be positive and
pay a distinct invoice, the leftover is never negative, and when the kit saw the allocated
invoices it checks they were paid oldest due date first.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from billing_toolkit.conformance.checks.base import Findings
from billing_toolkit.conformance.checks.totals import payment_violations
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.rules.base import RuleJudge, amount, amounts, resources_in
from billing_toolkit.conformance.rules.invoices import invoices
from billing_toolkit.conformance.rules.observations import Ledger, Observation
from billing_toolkit.conformance.rules.walks import walks_by_state

ZERO = Decimal("0.00")
PAYMENT_KEYS = frozenset({"payment_id", "amount", "allocations", "unapplied_amount"})


def payments(ledger: Ledger) -> Iterator[tuple[Observation, dict[str, Any]]]:
    """(observation, payment) for every payment created, replayed or listed."""
    return resources_in(ledger, "createPayment", "listPayments", PAYMENT_KEYS)


def _problems(
    payment: dict[str, Any], due_dates: dict[str, str], facts: ContractFacts
) -> list[str]:
    allocations = payment["allocations"]
    if not isinstance(allocations, list) or not all(isinstance(a, dict) for a in allocations):
        return []
    ident = payment.get("payment_id")
    problems = []
    parts = amounts([a.get("amount") for a in allocations], facts) or []
    if any(part <= ZERO for part in parts):
        problems.append("an allocation is zero or negative")
    numbers = [str(a.get("invoice_number")) for a in allocations]
    if len(set(numbers)) != len(numbers):
        problems.append(f"the same invoice is allocated twice ({', '.join(numbers)})")
    unapplied = amount(payment["unapplied_amount"], facts)
    if unapplied is not None and unapplied < ZERO:
        problems.append(f"unapplied_amount is negative ({unapplied})")
    known = [(due_dates[n], n) for n in numbers if n in due_dates]
    if known != sorted(known):
        problems.append(f"invoices are not paid oldest due date first ({', '.join(numbers)})")
    return payment_violations(payment, facts) + [f"{ident}: {problem}" for problem in problems]


def judge_allocation(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    due_dates = {str(i["invoice_number"]): str(i.get("due_date")) for _, i in invoices(ledger)}
    for seen, payment in payments(ledger):
        findings.inspected += 1
        for problem in _problems(payment, due_dates, facts):
            findings.add(f"{seen.exchange.describe()}: {problem}", seen.exchange)
    return findings


def judge_listed(ledger: Ledger, facts: ContractFacts) -> Findings:
    """Each payment the run booked, wherever a list shows it, is its 201 body; over a
    complete walk of an account's payments, the allocations to each invoice of a complete
    invoice walk in the same state add up to no more than its amount_paid."""
    findings = Findings()
    created = {
        str(payment["payment_id"]): payment
        for seen, payment in payments(ledger)
        if seen.operation_id == "createPayment"
    }
    for seen, payment in payments(ledger):
        booked = created.get(str(payment["payment_id"]))
        if seen.operation_id != "listPayments" or booked is None:
            continue
        findings.inspected += 1
        if payment != booked:
            changed = sorted(
                k for k in payment.keys() | booked.keys() if payment.get(k) != booked.get(k)
            )
            findings.add(
                f"{seen.exchange.describe()}: {payment['payment_id']} is listed with other "
                f"{', '.join(changed)} than its 201 returned",
                seen.exchange,
            )
    invoice_walks = walks_by_state(ledger, "listInvoices")
    for state, walk in walks_by_state(ledger, "listPayments").items():
        listed = invoice_walks.get(state)
        if listed is None:
            continue
        findings.inspected += 1
        allocated: dict[str, Decimal] = {}
        for payment in walk.items:
            for part in payment.get("allocations") or []:
                value = amount(part.get("amount"), facts) if isinstance(part, dict) else None
                if value is not None:
                    number = str(part.get("invoice_number"))
                    allocated[number] = allocated.get(number, ZERO) + value
        for invoice in listed.items:
            paid = amount(invoice.get("amount_paid"), facts)
            number = str(invoice.get("invoice_number"))
            if paid is not None and allocated.get(number, ZERO) > paid:
                findings.add(
                    f"{walk.last.exchange.describe()}: the payments allocate "
                    f"{allocated[number]} to {number}, which shows amount_paid {paid}",
                    walk.last.exchange,
                )
    return findings


JUDGES = (
    RuleJudge("payment.allocation", judge_allocation),
    RuleJudge("payment.listed", judge_listed),
)
