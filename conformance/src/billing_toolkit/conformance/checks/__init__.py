"""The project's own checks, in the order they run and are reported.

Response rules judge every exchange of the run; scenarios drive short conversations; the
coverage check looks at the whole run. Schemathesis's checks are added by
`billing_toolkit.conformance.schemathesis_phase`, one row each, under the `schemathesis.` prefix.
"""

from __future__ import annotations

from billing_toolkit.conformance.checks import (
    authentication,
    balance,
    exact_lookup,
    idempotency,
    money,
    operation_coverage,
    pagination,
    problem_json,
    request_id,
    retry_after,
    schema,
    tenancy,
    totals,
    validation,
)
from billing_toolkit.conformance.checks.base import ResponseRule, Scenario, ScenarioContext
from billing_toolkit.conformance.checks.operation_coverage import CoverageCheck

RESPONSE_RULES: tuple[ResponseRule, ...] = (
    problem_json.RULE,
    request_id.RULE,
    retry_after.RULE,
    money.RULE,
    totals.RULE,
)

# What `verify` judges every response by: the response rules plus the body against its
# schema. The proxy judges schemas itself (`proxy/schema_judge`, under the same rule id),
# so it takes `RESPONSE_RULES` alone.
VERIFY_RESPONSE_RULES: tuple[ResponseRule, ...] = (*RESPONSE_RULES, schema.RULE)

# Read-only scenarios first; the one that writes runs last so it cannot disturb the others.
SCENARIOS: tuple[Scenario, ...] = (
    authentication.SCENARIO,
    validation.SCENARIO,
    exact_lookup.SCENARIO,
    pagination.SCENARIO,
    balance.SCENARIO,
    tenancy.SCENARIO,
    idempotency.SCENARIO,
)

COVERAGE: CoverageCheck = operation_coverage.CHECK

__all__ = [
    "COVERAGE",
    "RESPONSE_RULES",
    "SCENARIOS",
    "VERIFY_RESPONSE_RULES",
    "ResponseRule",
    "Scenario",
    "ScenarioContext",
]
