"""Requests built from the contract's operation table, never from a hand-written path.

Every request the kit sends names its operation by operationId: the path is the operation's
template expanded, and each parameter is filled by the format of its schema (a parameter
whose schema is the contract's AccountNumber gets the test account, whatever it is called).
Renaming a path or a parameter in contract/openapi.yaml therefore changes what the kit sends
without an edit in the kit, and the kit cannot ask for a route the contract does not have.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.errors import KitError
from billing_toolkit.contract.formats import Formats, IdentifierFormat
from billing_toolkit.contract.operations import Operation, Parameter

Identifiers = Mapping[IdentifierFormat, str]
"""The identifiers a request may carry, by the contract format they have."""

PROBE_OPERATION = "listPlans"
"""A read that needs a key and no test data: the kit's probe of a key and of the rate limit."""

FILLED_LOCATIONS = ("path", "query")
"""Where the kit fills parameters from the test data; headers are each caller's own."""


@dataclass(frozen=True)
class Call:
    """One request: a path with its parameters filled in, query, headers and the operation's
    method (`ApiSession.send` sends it as it is)."""

    path: str
    params: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    method: str = "GET"

    def with_params(self, extra: Mapping[str, str]) -> Call:
        """The same request with more query parameters (a page size, a malformed value)."""
        return replace(self, params={**self.params, **extra})


@dataclass(frozen=True)
class Paging:
    """The wire names of the contract's shared paging parameters (components/parameters),
    which every cursor walk sends."""

    limit: str
    cursor: str


def paging(facts: ContractFacts) -> Paging:
    """The paging parameters' names, read from the contract rather than assumed."""
    shared = facts.contract.document["components"]["parameters"]
    return Paging(limit=shared["Limit"]["name"], cursor=shared["Cursor"]["name"])


def operation(facts: ContractFacts, operation_id: str) -> Operation:
    """The operation the kit needs; `KitError` (one line, exit 2) when the run's contract
    lacks it, since no check could judge an implementation of a route it cannot name."""
    found = facts.contract.operations.get(operation_id)
    if found is None:
        raise KitError(f"the contract has no operation {operation_id}, which the kit needs")
    return found


def fill(parameter: Parameter, known: Identifiers, formats: Formats) -> str | None:
    """The known identifier whose contract format is the parameter's schema (path and query
    parameters only: the kit sends no header or cookie from the test data)."""
    if parameter.location not in FILLED_LOCATIONS:
        return None
    pattern = parameter.schema.get("pattern")
    return next(
        (value for kind, value in known.items() if formats.identifier(kind).pattern == pattern),
        None,
    )


def filled(
    operation: Operation, known: Identifiers, formats: Formats
) -> tuple[list[tuple[Parameter, str]], list[Parameter]]:
    """The parameters the known identifiers fill, with their values, in contract order; and
    the required parameters left without a value (a request without them cannot succeed)."""
    values = [(parameter, fill(parameter, known, formats)) for parameter in operation.parameters]
    given = [(parameter, value) for parameter, value in values if value is not None]
    unfilled = [parameter for parameter, value in values if parameter.required and value is None]
    return given, unfilled


def expand(operation: Operation, given: list[tuple[Parameter, str]]) -> str:
    """The operation's path with the given path parameters filled in."""
    return operation.path.expand(**{p.name: value for p, value in given if p.location == "path"})


def call(facts: ContractFacts, operation_id: str, known: Identifiers) -> Call:
    """The request to `operation_id` with every path and query parameter the known
    identifiers fill; `KitError` when a required one has no value of its format."""
    found = operation(facts, operation_id)
    given, unfilled = filled(found, known, facts.formats)
    missing = [parameter.name for parameter in unfilled if parameter.location in FILLED_LOCATIONS]
    if missing:
        raise KitError(f"{operation_id} needs {', '.join(missing)}, which the test data lacks")
    query = {parameter.name: value for parameter, value in given if parameter.location == "query"}
    return Call(expand(found, given), query, method=found.method)
