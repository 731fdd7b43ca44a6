"""An identifier one transposition away from a real one is a 404, never the neighbour.

A subscriber who types INV-2026-004218 for INV-2026-004281 must hear "no such invoice",
not be read someone else's bill. The kit asks for the near misses of a real invoice number
and account number (adjacent digits swapped, last digit changed, lower-case prefix) and
accepts only a 4xx or the record whose identifier is exactly the one requested.
"""

from __future__ import annotations

from collections.abc import Iterator

from billing_toolkit.conformance.calls import Call
from billing_toolkit.conformance.checks.base import Findings, Scenario, ScenarioContext
from billing_toolkit.contract.formats import IdentifierFormat


def transpositions(digits: str) -> Iterator[str]:
    """Each variant of `digits` with two different adjacent digits swapped."""
    for i in range(len(digits) - 1):
        if digits[i] != digits[i + 1]:
            yield digits[:i] + digits[i + 1] + digits[i] + digits[i + 2 :]


def near_invoice_numbers(number: str) -> list[str]:
    """Near misses of `INV-YYYY-NNNNNN`: sequence transpositions, last digit ±1, lower case."""
    prefix, sequence = number.rsplit("-", 1)
    variants = [f"{prefix}-{t}" for t in transpositions(sequence)]
    last = int(sequence[-1])
    variants += [f"{prefix}-{sequence[:-1]}{(last + step) % 10}" for step in (1, -1)]
    variants.append(number.lower())
    return list(dict.fromkeys(variants))


def near_account_numbers(account: str) -> list[str]:
    """Near misses of an account number that still match its pattern (no leading zero)."""
    variants = [t for t in transpositions(account) if not t.startswith("0")]
    return list(dict.fromkeys(variants))


def run(ctx: ScenarioContext) -> Findings:
    findings = Findings(passed_summary="near-miss identifiers are 404s, never the neighbour")
    known_invoices = ctx.data.invoice_numbers
    probes: list[tuple[Call, str, str]] = []
    if ctx.data.invoice_number is not None:
        probes += [
            (ctx.call("getInvoice", {IdentifierFormat.INVOICE_NUMBER: n}), n, "invoice_number")
            for n in near_invoice_numbers(ctx.data.invoice_number)
            if n not in known_invoices
        ]
    probes += [
        (ctx.call("getCustomer", {IdentifierFormat.ACCOUNT_NUMBER: a}), a, "account_number")
        for a in near_account_numbers(ctx.data.account_number)
    ]
    for request, requested, member in probes:
        reply = ctx.session.send(request)
        findings.inspected += 1
        body = reply.json()
        if reply.status == 200:
            returned = body.get(member) if isinstance(body, dict) else None
            if returned != requested:
                findings.add(f"asked for {requested}, got 200 with {member} {returned!r}", reply)
        elif not 400 <= reply.status < 500:
            findings.add(f"asked for {requested}: expected 404, got {reply.describe()}", reply)
    return findings


SCENARIO = Scenario(
    name="exact_lookup",
    meaning=(
        "Near misses of the test invoice number (two adjacent digits of the sequence swapped, "
        "last digit ±1, lower-case 'inv-') and of the account number (adjacent digits "
        "swapped) are answered with a 4xx, or with 200 only when the record's identifier is "
        "exactly the one requested."
    ),
    remedy=(
        "Look identifiers up by equality on the canonical column (tenant-scoped), never with "
        "LIKE, trigram/fuzzy search, case folding or a nearest-match fallback."
    ),
    run=run,
)
