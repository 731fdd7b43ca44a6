"""A malformed request is a 400 validation_error naming the field, never a 500.

A 500 is an outage to the assistant (escalate, trip the breaker); a 400 is an answer
("that is not a valid date"). The kit sends one malformed value per documented query
parameter of listInvoices (plus a tampered cursor and a lookup with two identifiers). The
parameters and their values come from the operation's schemas, not from a list of names, so
a parameter renamed or added in the contract is tested as it is documented.
"""

from __future__ import annotations

from itertools import cycle

from billing_toolkit.conformance.calls import Call, Paging, operation, paging
from billing_toolkit.conformance.checks.base import Findings, Scenario, ScenarioContext
from billing_toolkit.contract.formats import IdentifierFormat
from billing_toolkit.contract.operations import Operation

# Values invalid per the contract, by what the parameter's schema is.
NOT_A_NUMBER = "ten"
NOT_ENUMERATED = "unpaid"  # in no enumeration of the contract
IMPOSSIBLE_DATES = ("2026-13-45", "yesterday")  # a month 13, a word: one per date parameter
TAMPERED_CURSOR = "zz-not-a-cursor-zz"  # fits the cursor's pattern, was never issued
OTHER_NATIONAL_ID = "V-12345678"


def malformed_queries(listing: Operation, names: Paging) -> list[tuple[str, str]]:
    """(query parameter, invalid value) of `listing`, one request each, chosen by schema: the
    page size out of its bounds and not a number, each enumeration a value outside it, each
    date an impossible one, the cursor tampered. Page size first, cursor last."""
    query = [parameter for parameter in listing.parameters if parameter.location == "query"]
    size = listing.parameter("query", names.limit)
    cases: list[tuple[str, str]] = []
    if size is not None:
        outside = [
            str(size.schema[bound] + step)
            for bound, step in (("minimum", -1), ("maximum", 1))
            if bound in size.schema
        ]
        cases += [(size.name, value) for value in (*outside, NOT_A_NUMBER)]
    cases += [(parameter.name, NOT_ENUMERATED) for parameter in query if "enum" in parameter.schema]
    dates = [parameter.name for parameter in query if parameter.schema.get("format") == "date"]
    cases += zip(dates, cycle(IMPOSSIBLE_DATES))
    if listing.parameter("query", names.cursor) is not None:
        cases.append((names.cursor, TAMPERED_CURSOR))
    return cases


def _lookup_by_two(ctx: ScenarioContext) -> Call:
    """A customer lookup by account number and national ID at once (the contract's prose
    allows exactly one), the account first."""
    by_account, by_id = (
        ctx.call("lookupCustomer", {kind: value})
        for kind, value in (
            (IdentifierFormat.ACCOUNT_NUMBER, ctx.data.account_number),
            (IdentifierFormat.NATIONAL_ID, OTHER_NATIONAL_ID),
        )
    )
    return by_account.with_params(by_id.params)


def run(ctx: ScenarioContext) -> Findings:
    findings = Findings(
        passed_summary="malformed requests get 400 validation_error naming the field"
    )
    listing = ctx.call("listInvoices")
    malformed = malformed_queries(operation(ctx.facts, "listInvoices"), paging(ctx.facts))
    cases: list[tuple[Call, str | None]] = [
        (listing.with_params({name: value}), f"query.{name}") for name, value in malformed
    ]
    cases.append((_lookup_by_two(ctx), None))
    for request, field in cases:
        reply = ctx.session.send(request)
        findings.inspected += 1
        shown = "&".join(f"{k}={v}" for k, v in request.params.items())
        body = reply.json()
        if (
            reply.status != 400
            or not isinstance(body, dict)
            or body.get("code") != "validation_error"
        ):
            findings.add(f"{shown}: expected 400 validation_error, got {reply.describe()}", reply)
            continue
        if field is None:
            continue
        errors = body.get("errors")
        named = (
            {e.get("field") for e in errors if isinstance(e, dict)}
            if isinstance(errors, list)
            else set()
        )
        if field not in named:
            findings.add(f"{shown}: the 400 does not name {field} in errors[].field", reply)
    return findings


SCENARIO = Scenario(
    name="validation",
    meaning=(
        "Malformed query parameters on listInvoices (limit 0, 101 or 'ten', an unknown status, "
        "impossible dates, a tampered cursor) and a customer lookup with two identifiers are "
        "400 validation_error; for a single bad parameter, errors[].field names it "
        "(query.limit, query.status, ...)."
    ),
    remedy=(
        "Validate query parameters against the contract before the handler runs (an OpenAPI "
        "request validator does it), and turn each validation failure into a 400 problem "
        "with an errors[] entry per field instead of letting a parse error become a 500."
    ),
    run=run,
)
