"""Identifier and money formats, read from the contract's `components/schemas`.

Every package that recognises an account number, an invoice number or an amount (the
simulator's data, the conformance kit's settings, the assistant's identifier finder) takes
the pattern from here, so a format changed in `contract/openapi.yaml` changes everywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from billing_toolkit.contract.operations import load_contract

AMOUNT_SCHEMAS = frozenset({"Amount", "PositiveAmount"})
"""The schemas that hold money: a property referring to one of them is a money field."""


class IdentifierFormat(StrEnum):
    """The contract's identifier schemas, by the name `components/schemas` gives them."""

    ACCOUNT_NUMBER = "AccountNumber"
    INVOICE_NUMBER = "InvoiceNumber"
    PAYMENT_ID = "PaymentId"
    PLAN_ID = "PlanId"
    PHONE = "Phone"
    NATIONAL_ID = "NationalId"


@dataclass(frozen=True, slots=True)
class Formats:
    """The formats of one contract: anchored patterns (use `fullmatch`) and enumerations."""

    identifiers: dict[IdentifierFormat, re.Pattern[str]]
    amount: re.Pattern[str]
    positive_amount: re.Pattern[str]
    currencies: frozenset[str]
    problem_codes: frozenset[str]
    money_fields: frozenset[str]
    """Property names whose schema is an amount, across every schema of the contract."""

    def identifier(self, kind: IdentifierFormat) -> re.Pattern[str]:
        """The anchored pattern of one identifier kind."""
        return self.identifiers[kind]

    def searchable(self, kind: IdentifierFormat) -> str:
        """The pattern of one identifier kind without its anchors, to find it inside text."""
        return unanchored(self.identifiers[kind].pattern)


def unanchored(pattern: str) -> str:
    """`^INV-[0-9]{4}$` → `(?:INV-[0-9]{4})`: the same language, findable inside text."""
    return f"(?:{pattern.removeprefix('^').removesuffix('$')})"


def _money_fields(schemas: dict[str, Any]) -> frozenset[str]:
    refs = {f"#/components/schemas/{name}" for name in AMOUNT_SCHEMAS}
    return frozenset(
        name
        for schema in schemas.values()
        for name, prop in schema.get("properties", {}).items()
        if prop.get("$ref") in refs
    )


def formats_from_document(document: dict[str, Any]) -> Formats:
    """The formats of a parsed document (pure: tests derive them from altered documents)."""
    schemas = document["components"]["schemas"]
    return Formats(
        identifiers={kind: re.compile(schemas[kind.value]["pattern"]) for kind in IdentifierFormat},
        amount=re.compile(schemas["Amount"]["pattern"]),
        positive_amount=re.compile(schemas["PositiveAmount"]["pattern"]),
        currencies=frozenset(schemas["Currency"]["enum"]),
        problem_codes=frozenset(schemas["ProblemCode"]["enum"]),
        money_fields=_money_fields(schemas),
    )


@cache
def contract_formats() -> Formats:
    """The formats of the bundled billing contract, from the process's one parse of it (the
    SDK, the simulator and the assistant's readers all read the same document)."""
    return formats_from_document(load_contract().document)
