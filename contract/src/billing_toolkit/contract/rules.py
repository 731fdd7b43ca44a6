"""The business rules the contract promises, read from its `x-business-rules` extension.

A schema says what a response looks like; these rules say what its figures must mean
(`net_balance = amount_due - credit_balance`, a replay moves money once, ...). Each rule has
an id, its statement and where it applies; operations and schemas name the rules that apply
to them with `x-rules`. The simulator names the code implementing each id and the
conformance kit the check judging it, so a rule added here without either is a red test.
Bias: a malformed rule list is a `ContractError`, never a silently shorter list.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from billing_toolkit.contract.document import ContractError, is_array, is_object, load, operations
from billing_toolkit.contract.paths import OPENAPI_PATH

EXTENSION = "x-business-rules"
MARKER = "x-rules"
EVERY_OPERATION = "*"


@dataclass(frozen=True)
class BusinessRule:
    """One promise of the contract: its id, what it says and where it applies."""

    rule_id: str
    statement: str
    operations: tuple[str, ...]
    schemas: tuple[str, ...]
    properties: tuple[str, ...] = ()
    """`Schema.property` names of the response fields whose meaning this rule states (the
    suite fails on a field with a business meaning that no rule names)."""

    @property
    def family(self) -> str:
        """The id's first part (`idempotency` for `idempotency.replay`)."""
        return self.rule_id.split(".", 1)[0]

    def applies_to_operation(self, operation_id: str) -> bool:
        return EVERY_OPERATION in self.operations or operation_id in self.operations


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not is_array(value) or not all(isinstance(item, str) for item in value):
        raise ContractError(f"{where} must be a list of strings")
    return tuple(value)


def _properties(document: dict[str, Any], value: Any, rule_id: str) -> tuple[str, ...]:
    """The rule's `Schema.property` names; `ContractError` for one the schemas lack."""
    names = _strings(value, f"{rule_id} applies-to.properties")
    schemas = document.get("components", {}).get("schemas", {})
    for name in names:
        schema_name, _, field = name.partition(".")
        schema = schemas.get(schema_name)
        if not is_object(schema) or field not in (schema.get("properties") or {}):
            raise ContractError(f"{rule_id} applies-to.properties names {name}, no such property")
    return names


def rules_from_document(document: dict[str, Any]) -> dict[str, BusinessRule]:
    """Rule id → rule, in document order; `ContractError` for a malformed or repeated entry,
    or an `x-rules` marker naming an id the list lacks."""
    entries = document.get(EXTENSION, [])
    if not is_array(entries):
        raise ContractError(f"{EXTENSION} must be a list")
    rules: dict[str, BusinessRule] = {}
    for entry in entries:
        if not is_object(entry) or not isinstance(entry.get("id"), str):
            raise ContractError(f"every {EXTENSION} entry needs a string id")
        rule_id = entry["id"]
        statement = entry.get("statement")
        if not isinstance(statement, str) or not statement.strip():
            raise ContractError(f"business rule {rule_id} has no statement")
        if rule_id in rules:
            raise ContractError(f"business rule {rule_id} is defined twice")
        where: dict[str, Any] = entry.get("applies-to") or {}
        rules[rule_id] = BusinessRule(
            rule_id=rule_id,
            statement=statement.strip(),
            operations=_strings(where.get("operations"), f"{rule_id} applies-to.operations"),
            schemas=_strings(where.get("schemas"), f"{rule_id} applies-to.schemas"),
            properties=_properties(document, where.get("properties"), rule_id),
        )
    for marked, ids in markers(document).items():
        unknown = sorted(set(ids) - rules.keys())
        if unknown:
            raise ContractError(f"{marked} names unknown business rule(s) {', '.join(unknown)}")
    return rules


def markers(document: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """`operation <id>` / `schema <name>` → the rule ids its `x-rules` names."""
    found: dict[str, tuple[str, ...]] = {}
    for _, _, operation in operations(document):
        if MARKER in operation:
            where = f"operation {operation.get('operationId')}"
            found[where] = _strings(operation[MARKER], where)
    for name, schema in document.get("components", {}).get("schemas", {}).items():
        if is_object(schema) and MARKER in schema:
            found[f"schema {name}"] = _strings(schema[MARKER], f"schema {name}")
    return found


@cache
def load_rules(path: Path = OPENAPI_PATH) -> dict[str, BusinessRule]:
    """The business rules of the contract at `path` (the bundled one by default)."""
    return rules_from_document(load(path))
