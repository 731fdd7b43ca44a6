"""The ledger of what a run changed on the system under test: every write it made.

The kit runs against someone's staging system, so the report must say exactly what it left
behind: each request to a write operation of the contract that the API accepted (a 2xx
that is not an idempotent replay), with its operation, the account (masked, the report
lands in CI logs), the amount and currency it sent, and the total per currency. Read from
the recorded exchanges, so the kit's own payment and anything schemathesis posted (with
--allow-fuzz-writes) are counted the same way. Bias: count a write whenever the API said it
accepted one; a replay is not counted because the API says it stored nothing new.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.contract.formats import IdentifierFormat
from billing_toolkit.contract.masking import hide

REPLAYED_HEADER = "Idempotent-Replayed"


@dataclass(frozen=True)
class Write:
    """One accepted write, as the report shows it (the account already masked)."""

    operation_id: str
    account: str | None
    amount: Decimal | None
    currency: str | None
    status: int


def writes_made(exchanges: Iterable[Exchange], facts: ContractFacts) -> tuple[Write, ...]:
    """Every exchange that hit a write operation and was accepted, in the order sent."""
    account_pattern = facts.formats.identifier(IdentifierFormat.ACCOUNT_NUMBER).pattern
    found: list[Write] = []
    for exchange in exchanges:
        match = facts.matcher.match(exchange.method.upper(), exchange.path)
        if match is None or not match[0].writes or not 200 <= exchange.status < 300:
            continue
        if (exchange.response_header(REPLAYED_HEADER) or "").lower() == "true":
            continue
        operation, path_values = match
        account = next(
            (
                path_values[p.name]
                for p in operation.parameters
                if p.location == "path" and p.schema.get("pattern") == account_pattern
            ),
            None,
        )
        body = _json_object(exchange.request_body)
        found.append(
            Write(
                operation_id=operation.operation_id,
                account=hide(account) if account is not None else None,
                amount=_decimal(body.get("amount")),
                currency=body["currency"] if isinstance(body.get("currency"), str) else None,
                status=exchange.status,
            )
        )
    return tuple(found)


def totals(writes: Iterable[Write]) -> dict[str, Decimal]:
    """Amount written per currency, currencies sorted (writes without an amount add nothing)."""
    sums: dict[str, Decimal] = {}
    for write in writes:
        if write.amount is not None:
            currency = write.currency or "?"
            sums[currency] = sums.get(currency, Decimal(0)) + write.amount
    return dict(sorted(sums.items()))


def describe(write: Write) -> str:
    """`createPayment 10******21 USD 1.00`, for the console and the Markdown report."""
    parts = [write.operation_id, write.account or "", write.currency or "", _money(write.amount)]
    return " ".join(part for part in parts if part)


def describe_totals(writes: tuple[Write, ...]) -> str:
    """`1 write (USD 1.00)`, or `no writes`."""
    if not writes:
        return "no writes"
    sums = ", ".join(f"{currency} {_money(amount)}" for currency, amount in totals(writes).items())
    noun = "write" if len(writes) == 1 else "writes"
    return f"{len(writes)} {noun}" + (f" (total {sums})" if sums else "")


def as_dict(write: Write) -> dict[str, Any]:
    """A write for the JSON report: money as a decimal string, as on the wire."""
    return {
        "operation": write.operation_id,
        "account": write.account,
        "amount": _money(write.amount) or None,
        "currency": write.currency,
        "status": write.status,
    }


def _money(amount: Decimal | None) -> str:
    return "" if amount is None else f"{amount:f}"


def _json_object(body: bytes | None) -> dict[str, Any]:
    try:
        parsed = json.loads(body) if body else None
    except (ValueError, UnicodeDecodeError):
        return {}
    return parsed if isinstance(parsed, dict) else {}


def _decimal(value: object) -> Decimal | None:
    if not isinstance(value, str):
        return None
    try:
        number = Decimal(value)
    except InvalidOperation:
        return None
    return number if number.is_finite() else None
