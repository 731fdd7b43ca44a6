"""What the kit needs to know about the contract, read from `contract/openapi.yaml` itself.

The checks never hard-code a field list or a route table that the contract already states:
money fields are the properties whose schema is `Amount`, problem codes are the `ProblemCode`
enum, operations are the `paths`. When the contract grows a money field or an operation, the
kit follows without an edit.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from contract import OPENAPI_PATH
from contract.document import load, resolve
from contract.document import operations as contract_operations

_AMOUNT_REFS = frozenset({"#/components/schemas/Amount", "#/components/schemas/PositiveAmount"})


@dataclass(frozen=True)
class Operation:
    """One documented operation: how to recognise a request to it and what it may answer."""

    operation_id: str
    method: str
    path_template: str
    path_regex: re.Pattern[str]
    documented_statuses: frozenset[int]
    needs_auth: bool
    error_codes: Mapping[int, str]

    @property
    def writes(self) -> bool:
        return self.method not in ("GET", "HEAD", "OPTIONS")


@dataclass(frozen=True)
class ContractFacts:
    """The facts derived once per run from the contract document."""

    operations: tuple[Operation, ...]
    money_fields: frozenset[str]
    amount_pattern: re.Pattern[str]
    problem_codes: frozenset[str]

    def operation_for(self, method: str, path: str) -> Operation | None:
        """The operation a request hits, or None for an undocumented method/path."""
        for operation in self.operations:
            if operation.method == method.upper() and operation.path_regex.fullmatch(path):
                return operation
        return None


def _template_regex(template: str) -> re.Pattern[str]:
    """`/v1/invoices/{invoiceNumber}` → a regex where each parameter is one path segment."""
    parts = re.split(r"(\{[^}]+\})", template)
    pattern = "".join("[^/]+" if part.startswith("{") else re.escape(part) for part in parts)
    return re.compile(pattern)


def _refers_to_amount(schema: dict[str, Any]) -> bool:
    return schema.get("$ref") in _AMOUNT_REFS


def _money_fields(spec: dict[str, Any]) -> frozenset[str]:
    names: set[str] = set()
    for schema in spec["components"]["schemas"].values():
        for name, prop in schema.get("properties", {}).items():
            if _refers_to_amount(prop):
                names.add(name)
    return frozenset(names)


def _error_codes(spec: dict[str, Any], responses: dict[str, Any]) -> dict[int, str]:
    """Status → the problem `code` the documented error response carries.

    The contract gives each error response (CustomerNotFound, InvoiceNotFound, ...) examples
    with one code; that code is what the operation must send for that status. Responses
    without a single code in their examples expect none in particular.
    """
    codes: dict[int, str] = {}
    for status, response in responses.items():
        if not str(status).isdigit() or int(status) < 400:
            continue
        response = resolve(spec, response)
        found = {
            example.get("value", {}).get("code")
            for media in response.get("content", {}).values()
            for example in media.get("examples", {}).values()
        }
        if len(found) == 1 and None not in found:
            codes[int(status)] = found.pop()
    return codes


def _operations(spec: dict[str, Any]) -> tuple[Operation, ...]:
    default_security = spec.get("security", [])
    operations = []
    for template, method, op in contract_operations(spec):
        operations.append(
            Operation(
                operation_id=op["operationId"],
                method=method.upper(),
                path_template=template,
                path_regex=_template_regex(template),
                documented_statuses=frozenset(int(code) for code in op["responses"]),
                needs_auth=bool(op.get("security", default_security)),
                error_codes=_error_codes(spec, op["responses"]),
            )
        )
    return tuple(operations)


def facts_from_spec(spec: dict[str, Any]) -> ContractFacts:
    """Derive the kit's facts from a parsed OpenAPI document (pure, for tests)."""
    schemas = spec["components"]["schemas"]
    return ContractFacts(
        operations=_operations(spec),
        money_fields=_money_fields(spec),
        amount_pattern=re.compile(schemas["Amount"]["pattern"]),
        problem_codes=frozenset(schemas["ProblemCode"]["enum"]),
    )


@lru_cache(maxsize=4)
def load_facts(path: Path = OPENAPI_PATH) -> ContractFacts:
    """The facts of the contract at `path` (the bundled contract by default), parsed once."""
    return facts_from_spec(load(path))
