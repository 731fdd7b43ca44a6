"""Money is a decimal string with exactly two decimals, never a JSON number.

A float such as 0.1 + 0.2 printed to a subscriber is a wrong number; a string such as
"45.0" breaks every parser that expects the documented pattern. The money fields are the
contract's properties whose schema is `Amount`, found anywhere in a response body.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from billing_toolkit.conformance.checks.base import ResponseRule
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.exchange import Exchange


def is_json_success(exchange: Exchange) -> bool:
    return 200 <= exchange.status < 300 and exchange.is_json()


def money_values(body: Any, fields: frozenset[str], at: str = "") -> Iterator[tuple[str, Any]]:
    """(JSON path, value) of every money field in `body`, depth first."""
    if isinstance(body, dict):
        for key, value in body.items():
            path = f"{at}/{key}"
            if key in fields and not isinstance(value, (dict, list)):
                yield path, value
            else:
                yield from money_values(value, fields, path)
    elif isinstance(body, list):
        for index, item in enumerate(body):
            yield from money_values(item, fields, f"{at}/{index}")


def money_violations(exchange: Exchange, facts: ContractFacts) -> list[str]:
    problems = []
    amount = facts.formats.amount
    for path, value in money_values(exchange.json(), facts.formats.money_fields):
        if not isinstance(value, str):
            problems.append(
                f"{path} is the JSON {type(value).__name__} {value!r}, not a decimal string"
            )
        elif not amount.fullmatch(value):
            problems.append(f"{path} {value!r} does not match {amount.pattern}")
    return problems


RULE = ResponseRule(
    name="money",
    meaning=(
        "Every money field (amount, subtotal, tax, total, amount_due, amount_paid, balances, "
        "monthly_price, unapplied_amount, ...) is a string with exactly two decimals "
        "('45.00', '-5.00'), never a JSON number."
    ),
    remedy=(
        "Keep money as a decimal type in code and serialise it with a fixed two-decimal "
        "string formatter; never let the JSON encoder see a float or a Decimal."
    ),
    applies_to=is_json_success,
    inspect=money_violations,
    nothing_to_inspect="no successful JSON response was observed",
)
