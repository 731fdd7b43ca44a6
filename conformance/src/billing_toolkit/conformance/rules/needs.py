"""What the data must show for a rule to be exercised, and whether the run's data showed it.

A rule judged only on easy data passes vacuously: `balance.net` on balances without credit
passes an implementation that ignores credit. So each rule names the cases it needs (a
balance with a credit, a partly paid invoice, ...); discovery reads more accounts until
every case was seen or its budget is spent, and a rule whose case no response showed is
reported *not exercised*, never passed. Bias: a case counts only when a response of the
tenant under test showed it, whoever sent the request.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Any

from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.rules.base import amount
from billing_toolkit.conformance.rules.invoices import invoices
from billing_toolkit.conformance.rules.observations import Ledger, Observation
from billing_toolkit.conformance.rules.payments import payments

ZERO = Decimal("0.00")
LARGE_VES = Decimal(1000)
PROBE_PAGE = 2
"""The page size the pagination probe walks with: more payments than this span pages."""


class Scope(StrEnum):
    INVOICE = "invoice"
    """One invoice shows it: discovery can tell from a single lookup."""
    ACCOUNT = "account"
    """An account read whole shows it."""
    RUN = "run"
    """Only what the run itself does shows it (a payment it booked): no account has it."""


@dataclass(frozen=True)
class Need:
    """A case some rules need to see, and how to tell the run's responses showed it."""

    description: str
    rules: tuple[str, ...]
    scope: Scope
    shown: Callable[[Ledger, ContractFacts], bool]


def _any_invoice(
    test: Callable[[dict[str, Any], ContractFacts], bool],
) -> Callable[[Ledger, ContractFacts], bool]:
    def shown(ledger: Ledger, facts: ContractFacts) -> bool:
        return any(test(invoice, facts) for _, invoice in invoices(ledger))

    return shown


def _partly_paid(invoice: dict[str, Any], facts: ContractFacts) -> bool:
    paid, total = amount(invoice.get("amount_paid"), facts), amount(invoice.get("total"), facts)
    return paid is not None and total is not None and ZERO < paid < total


def _large_ves(invoice: dict[str, Any], facts: ContractFacts) -> bool:
    total = amount(invoice.get("total"), facts)
    return invoice.get("currency") == "VES" and total is not None and total >= LARGE_VES


def _credit(ledger: Ledger, facts: ContractFacts) -> bool:
    return any(
        (amount(seen.body().get("credit_balance"), facts) or ZERO) > ZERO
        for seen in ledger.of("getBalance")
        if isinstance(seen.body(), dict)
    )


def _plan_change(ledger: Ledger, facts: ContractFacts) -> bool:
    return any(
        isinstance(seen.body(), dict) and isinstance(seen.body().get("pending_change"), dict)
        for seen in ledger.of("getSubscription")
    )


def _per_account(found: Iterable[tuple[Observation, dict[str, Any]]]) -> dict[str, set[str]]:
    """Account → the distinct invoice numbers or payment ids among `found`."""
    grouped: dict[str, set[str]] = defaultdict(set)
    for _, resource in found:
        grouped[str(resource.get("account_number"))].add(
            str(resource.get("invoice_number") or resource.get("payment_id"))
        )
    return grouped


def _several_overdue(ledger: Ledger, facts: ContractFacts) -> bool:
    overdue = ((s, i) for s, i in invoices(ledger) if i.get("status") == "overdue")
    return any(len(numbers) >= 2 for numbers in _per_account(overdue).values())


def _payments_across_pages(ledger: Ledger, facts: ContractFacts) -> bool:
    listed = ((s, p) for s, p in payments(ledger) if s.operation_id == "listPayments")
    return any(len(ids) > PROBE_PAGE for ids in _per_account(listed).values())


def _booked_then_listed(ledger: Ledger, facts: ContractFacts) -> bool:
    created = {
        str(p.get("payment_id")) for s, p in payments(ledger) if s.operation_id == "createPayment"
    }
    return any(
        str(p.get("payment_id")) in created
        for s, p in payments(ledger)
        if s.operation_id == "listPayments"
    )


NEEDS: tuple[Need, ...] = (
    Need("balance with a credit", ("balance.net",), Scope.ACCOUNT, _credit),
    Need(
        "invoice with 3+ lines",
        ("invoice.arithmetic",),
        Scope.INVOICE,
        _any_invoice(lambda i, _: len(i.get("line_items") or []) >= 3),
    ),
    Need(
        "VES invoice of 1000.00 or more",
        ("invoice.arithmetic", "currency.account"),
        Scope.INVOICE,
        _any_invoice(_large_ves),
    ),
    Need(
        "overdue invoice",
        ("invoice.status", "balance.amount_due"),
        Scope.INVOICE,
        _any_invoice(lambda i, _: i.get("status") == "overdue"),
    ),
    Need("partly paid invoice", ("invoice.status",), Scope.INVOICE, _any_invoice(_partly_paid)),
    Need("scheduled plan change", ("subscription.pending_change",), Scope.ACCOUNT, _plan_change),
    Need(
        "account with several overdue invoices",
        ("customer.status",),
        Scope.ACCOUNT,
        _several_overdue,
    ),
    Need(
        f"account with more than {PROBE_PAGE} payments (a walk across pages)",
        ("pagination.walk",),
        Scope.ACCOUNT,
        _payments_across_pages,
    ),
    Need(
        "payment booked by the run and listed after (needs --allow-writes)",
        ("payment.listed",),
        Scope.RUN,
        _booked_then_listed,
    ),
)


def unmet(ledger: Ledger, facts: ContractFacts) -> list[Need]:
    """The needs no response of the ledger showed, in `NEEDS` order."""
    return [need for need in NEEDS if not need.shown(ledger, facts)]


def missing_for(rule_id: str, missing: list[Need]) -> list[str]:
    """What `rule_id` needed that the run never showed (descriptions)."""
    return [need.description for need in missing if rule_id in need.rules]
