"""The figures of an invoice and of a payment add up, to the cent.

Invoice: subtotal = Σ non-tax lines, tax = Σ tax lines, total = subtotal + tax,
amount_due = total − amount_paid. Payment: amount = Σ allocations + unapplied_amount.
The assistant quotes these figures verbatim; if they disagree with each other, one of them
is a wrong number told to a subscriber.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from billing_toolkit.conformance.checks.base import ResponseRule
from billing_toolkit.conformance.checks.money import is_json_success
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.exchange import Exchange

INVOICE_KEYS = frozenset({"line_items", "subtotal", "tax", "total", "amount_paid", "amount_due"})
PAYMENT_KEYS = frozenset({"amount", "allocations", "unapplied_amount"})


def resources(body: Any, keys: frozenset[str]) -> Iterator[dict[str, Any]]:
    """Every object in `body` that has all of `keys` (invoices inside pages included)."""
    if isinstance(body, dict):
        if keys <= body.keys():
            yield body
        for value in body.values():
            yield from resources(value, keys)
    elif isinstance(body, list):
        for item in body:
            yield from resources(item, keys)


def decimals(values: list[Any], facts: ContractFacts) -> list[Decimal] | None:
    """The amounts as Decimals, or None if any is malformed (the money check reports that)."""
    if all(isinstance(v, str) and facts.formats.amount.fullmatch(v) for v in values):
        return [Decimal(v) for v in values]
    return None


def invoice_violations(invoice: dict[str, Any], facts: ContractFacts) -> list[str]:
    lines = invoice["line_items"]
    if not isinstance(lines, list) or not all(isinstance(line, dict) for line in lines):
        return []
    amounts = decimals([line.get("amount") for line in lines], facts)
    names = ("subtotal", "tax", "total", "amount_paid", "amount_due")
    values = decimals([invoice[name] for name in names], facts)
    if amounts is None or values is None:
        return []
    figures: dict[str, Decimal] = dict(zip(names, values, strict=True))
    tax_lines = sum(
        (amount for line, amount in zip(lines, amounts, strict=True) if line.get("kind") == "tax"),
        Decimal("0.00"),
    )
    expectations = (
        ("subtotal", sum(amounts, Decimal("0.00")) - tax_lines, "the sum of the non-tax lines"),
        ("tax", tax_lines, "the sum of the tax lines"),
        ("total", figures["subtotal"] + figures["tax"], "subtotal + tax"),
        ("amount_due", figures["total"] - figures["amount_paid"], "total - amount_paid"),
    )
    number = invoice.get("invoice_number", "invoice")
    return [
        f"{number}: {name} is {figures[name]} but {meaning} is {expected}"
        for name, expected, meaning in expectations
        if figures[name] != expected
    ]


def payment_violations(payment: dict[str, Any], facts: ContractFacts) -> list[str]:
    allocations = payment["allocations"]
    if not isinstance(allocations, list) or not all(isinstance(a, dict) for a in allocations):
        return []
    parts = decimals([item.get("amount") for item in allocations], facts)
    totals = decimals([payment["amount"], payment["unapplied_amount"]], facts)
    if parts is None or totals is None:
        return []
    amount, unapplied = totals
    applied = sum(parts, Decimal("0.00"))
    if applied + unapplied == amount:
        return []
    ident = payment.get("payment_id", "payment")
    total = applied + unapplied
    return [
        f"{ident}: amount is {amount} but allocations {applied} + unapplied {unapplied} = {total}"
    ]


def totals_violations(exchange: Exchange, facts: ContractFacts) -> list[str]:
    body = exchange.json()
    problems = [p for inv in resources(body, INVOICE_KEYS) for p in invoice_violations(inv, facts)]
    problems += [p for pay in resources(body, PAYMENT_KEYS) for p in payment_violations(pay, facts)]
    return problems


def carries_figures(exchange: Exchange) -> bool:
    if not is_json_success(exchange):
        return False
    body = exchange.json()
    return any(True for _ in resources(body, INVOICE_KEYS)) or any(
        True for _ in resources(body, PAYMENT_KEYS)
    )


RULE = ResponseRule(
    name="totals",
    meaning=(
        "Every invoice adds up: subtotal = sum of the non-tax line items, tax = sum of the "
        "tax lines, total = subtotal + tax, amount_due = total - amount_paid; every payment: "
        "amount = sum of its allocations + unapplied_amount."
    ),
    remedy=(
        "Compute subtotal, tax, total and amount_due from the stored line items with decimal "
        "arithmetic when the invoice is written or revised (late fee, payment), instead of "
        "storing figures that can drift apart."
    ),
    applies_to=carries_figures,
    inspect=totals_violations,
    nothing_to_inspect="no invoice or payment was observed",
)
