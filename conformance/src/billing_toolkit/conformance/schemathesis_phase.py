"""Run schemathesis (all its checks, every phase including the stateful one over the links)
through its Python engine, and turn what it saw into outcomes and exchanges.

Why the engine and not `st run` in a subprocess: the engine streams events, so progress is
live, and each failing check arrives with the very request that failed, which the kit
prints as curl with the API key masked. Every request schemathesis sent also becomes an
`Exchange`, so the kit's own response rules (problem+json, money, X-Request-Id, ...) judge
the generated traffic too.

Test data: schemathesis cannot guess an account number that exists, so every path
parameter whose schema is the account number or the invoice number format (today
`accountNumber` and `invoiceNumber`) is pinned to the test data; without that every
generated request would be a 404 and the run would prove nothing (#1327). Query parameters
stay free, so lookups are still generated.

Writes: by default schemathesis sends no request to a write operation (every POST, PUT,
PATCH and DELETE operation is excluded from every phase, stateful included), even with
--allow-writes, which only allows the kit's one documented idempotency payment. Generated
writes (random amounts, many of them) need their own flag, --allow-fuzz-writes, and then
they only target the pinned account; the report lists every write that was accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import schemathesis
from schemathesis.engine import Status as EngineStatus
from schemathesis.engine import events, from_schema

from billing_toolkit.conformance.calls import fill
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.discovery import TestData
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.outcome import CheckOutcome, Status, Violation
from billing_toolkit.conformance.settings import KitSettings

NAME = "schemathesis"
PREFIX = "schemathesis."
REMEDY = (
    "Reproduce with the curl command, compare the response with the contract "
    "(status, headers, body schema), and fix the implementation (or, if the contract is "
    "wrong, report it to the contract owners)."
)
MEANING = (
    "schemathesis runs every one of its checks (not_a_server_error, status_code_conformance, "
    "content_type_conformance, response_headers_conformance, response_schema_conformance, "
    "negative_data_rejection, positive_data_acceptance, missing_required_header, "
    "unsupported_method, ignored_auth, use_after_free, ensure_resource_availability, ...) "
    "over the examples, coverage, fuzzing and stateful phases; the stateful phase follows "
    "the contract's links (lookup → customer → balance → invoices → invoice). Each of its "
    "checks is one row, named schemathesis.<check>."
)


# The contract states some rules in prose that a schema cannot express, so schemathesis
# generates "schema-valid" requests the API must still reject. These statuses are added to
# positive_data_acceptance for exactly those operations (bias: keep the check strict
# everywhere else).
PROSE_REJECTIONS: dict[str, tuple[str, ...]] = {
    "lookupCustomer": ("400",),  # exactly one of phone, national_id, account_number
    "listInvoices": ("400",),  # an unknown or tampered cursor
    "listPayments": ("400",),  # an unknown or tampered cursor
    "createPayment": ("422",),  # a currency other than the account's
    "listPaymentReports": ("400",),  # an unknown or tampered cursor
    "createPaymentReport": ("422",),  # a payment date after today
}
POSITIVE_DEFAULT = ("2xx", "3xx", "401", "403", "404", "409", "429", "5xx")
WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")


@dataclass
class _Tally:
    """Per schemathesis check: how many times it ran and its first failure."""

    runs: int = 0
    failures: list[Violation] = field(default_factory=list)


@dataclass
class PhaseResult:
    outcomes: list[CheckOutcome]
    exchanges: list[Exchange]
    phases: tuple[str, ...]
    """The phases that sent at least one request, in the order they ran."""


def pinned_parameters(facts: ContractFacts, data: TestData) -> dict[str, str]:
    """Path parameter name → test data, for every path parameter of the contract the test
    data fills by format (the same rule as the kit's own requests, `calls.fill`)."""
    return {
        parameter.name: value
        for operation in facts.contract.operations.values()
        for parameter in operation.parameters
        if parameter.location == "path"
        and (value := fill(parameter, data.identifiers, facts.formats)) is not None
    }


def engine_config(settings: KitSettings, data: TestData, facts: ContractFacts) -> dict[str, Any]:
    """The schemathesis configuration (its documented schemathesis.toml keys) for this run."""
    config: dict[str, Any] = {
        "base-url": settings.base_url,
        "seed": settings.seed,
        "workers": 1,
        "request-timeout": settings.request_timeout,
        "auth": {"openapi": {"apiKey": {"bearer": settings.api_key}}},
        "parameters": pinned_parameters(facts, data),
        "generation": {"max-examples": settings.max_examples},
        "checks": {"enabled": True},
        "phases": {
            name: {"enabled": True} for name in ("examples", "coverage", "fuzzing", "stateful")
        },
        "warnings": False,
        "operations": [
            {
                "include-operation-id": operation_id,
                "checks": {
                    "positive_data_acceptance": {"expected-statuses": [*POSITIVE_DEFAULT, *extra]}
                },
            }
            for operation_id, extra in PROSE_REJECTIONS.items()
        ],
    }
    if settings.fuzz_time is not None:
        config["max-time"] = settings.fuzz_time
    return config


def run_schemathesis(
    settings: KitSettings,
    data: TestData,
    facts: ContractFacts,
    on_scenario: Callable[[str], None] = lambda label: None,
) -> PhaseResult:
    """Run the engine over the run's contract to completion; `on_scenario(label)` is called
    as each scenario ends."""
    config = schemathesis.Config.from_dict(engine_config(settings, data, facts))
    schema = schemathesis.openapi.from_path(facts.contract.path, config=config)
    if not settings.allow_fuzz_writes:
        schema = schema.exclude(method=list(WRITE_METHODS))
    tallies: dict[str, _Tally] = {}
    exchanges: list[Exchange] = []
    errors: list[Violation] = []
    phases: dict[str, None] = {}
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            if event.recorder.interactions:
                phases[str(event.phase.value)] = None
            _collect(event.recorder, tallies, exchanges)
            on_scenario(event.recorder.label)
        elif isinstance(event, (events.NonFatalError, events.FatalError)):
            errors.append(Violation(_error_text(event)))
    outcomes = [_outcome(name, tally) for name, tally in sorted(tallies.items())]
    if errors:
        outcomes.append(
            CheckOutcome(
                name=NAME,
                status=Status.FAILED,
                summary=f"schemathesis could not test everything: {errors[0].message}",
                violations=tuple(errors),
                remedy=REMEDY,
            )
        )
    return PhaseResult(outcomes=outcomes, exchanges=exchanges, phases=tuple(phases))


def _error_text(event: events.NonFatalError | events.FatalError) -> str:
    if isinstance(event, events.NonFatalError):
        return f"{event.label}: {event.info.title}: {event.info.message}".strip()
    return f"{type(event.exception).__name__}: {event.exception}"


def _collect(recorder: Any, tallies: dict[str, _Tally], exchanges: list[Exchange]) -> None:
    by_case: dict[str, Exchange] = {}
    for case_id, interaction in recorder.interactions.items():
        exchange = _exchange(interaction)
        by_case[case_id] = exchange
        exchanges.append(exchange)
    for case_id, nodes in recorder.checks.items():
        for node in nodes:
            tally = tallies.setdefault(node.name, _Tally())
            tally.runs += 1
            if node.status != EngineStatus.FAILURE or node.failure_info is None:
                continue
            failure = node.failure_info.failure
            where = failure.operation or recorder.label
            detail = failure.message.strip().splitlines()[0] if failure.message.strip() else ""
            exchange = by_case.get(failure.case_id or case_id)
            got = f" (got {exchange.status})" if exchange is not None and exchange.status else ""
            message = f"{where}: {failure.title}{got}" + (f" — {detail}" if detail else "")
            tally.failures.append(Violation(message, exchange))


def _exchange(interaction: Any) -> Exchange:
    """A schemathesis interaction as an exchange (status 0 when no response came back)."""
    request, response = interaction.request, interaction.response
    return Exchange(
        method=request.method,
        url=request.uri,
        request_headers={name: ", ".join(values) for name, values in request.headers.items()},
        request_body=request.body,
        status=response.status_code if response is not None else 0,
        response_headers=(
            {name: ", ".join(values) for name, values in response.headers.items()}
            if response is not None
            else {}
        ),
        response_body=response.content if response is not None else b"",
    )


def _outcome(check: str, tally: _Tally) -> CheckOutcome:
    name = PREFIX + check
    if not tally.failures:
        return CheckOutcome(
            name=name,
            status=Status.PASSED,
            summary=f"{tally.runs} checks passed",
            inspected=tally.runs,
        )
    extra = len(tally.failures) - 1
    return CheckOutcome(
        name=name,
        status=Status.FAILED,
        summary=tally.failures[0].message + (f" (+{extra} more)" if extra else ""),
        inspected=tally.runs,
        violations=tuple(tally.failures),
        remedy=REMEDY,
    )
