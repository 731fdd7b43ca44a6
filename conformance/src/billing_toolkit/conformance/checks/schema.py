"""`schema.response`: every response's body is the one its operation documents.

The discovery requests accept a body that breaks its schema when it is recognisably the
documented resource (`billing_answer.refuse_foreign`): that is the billing API with a bug,
and this check is where it fails, with the exchange to reproduce it. It judges every
response of the run whose status and media type the contract documents (an undocumented
status is schemathesis's `status_code_conformance`); the first schema error of each body
is reported, its path included.
"""

from __future__ import annotations

from billing_toolkit.conformance.billing_answer import foreign_problem, schema_problem
from billing_toolkit.conformance.checks.base import ResponseRule
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.exchange import Exchange

NAME = "schema.response"


def schema_violations(exchange: Exchange, facts: ContractFacts) -> list[str]:
    if foreign_problem(exchange, facts) is not None:
        return []
    problem = schema_problem(exchange, facts)
    return [] if problem is None else [problem.removeprefix(" but ")]


def _json_body(exchange: Exchange) -> bool:
    return exchange.is_json()


RULE = ResponseRule(
    name=NAME,
    meaning=(
        "Every JSON response with a documented status and media type is valid against the "
        "schema the contract documents for it: required properties present, types, formats "
        "and patterns kept, no undocumented property where the schema is closed."
    ),
    remedy=(
        "Serialise responses through models generated from the contract (or validate them "
        "against it in a test), so a dropped or renamed field fails before it ships."
    ),
    applies_to=_json_body,
    inspect=schema_violations,
    nothing_to_inspect="no JSON response to inspect",
)
