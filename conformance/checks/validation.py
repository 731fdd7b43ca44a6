"""A malformed request is a 400 validation_error naming the field, never a 500.

A 500 is an outage to the assistant (escalate, trip the breaker); a 400 is an answer
("that is not a valid date"). The kit sends one malformed value per documented query
parameter of listInvoices (plus a tampered cursor and a lookup with two identifiers).
"""

from __future__ import annotations

from conformance.checks.base import Findings, Scenario, ScenarioContext

# (query parameters, the field the error must name); each is invalid per the contract.
MALFORMED_INVOICE_QUERIES: tuple[tuple[dict[str, str], str], ...] = (
    ({"limit": "0"}, "query.limit"),
    ({"limit": "101"}, "query.limit"),
    ({"limit": "ten"}, "query.limit"),
    ({"status": "unpaid"}, "query.status"),
    ({"period_from": "2026-13-45"}, "query.period_from"),
    ({"period_to": "yesterday"}, "query.period_to"),
    ({"cursor": "zz-not-a-cursor-zz"}, "query.cursor"),
)


def run(ctx: ScenarioContext) -> Findings:
    findings = Findings(
        passed_summary="malformed requests get 400 validation_error naming the field"
    )
    cases = [
        (f"/v1/customers/{ctx.data.account_number}/invoices", params, field)
        for params, field in MALFORMED_INVOICE_QUERIES
    ]
    two_identifiers = {"account_number": ctx.data.account_number, "national_id": "V-12345678"}
    cases.append(("/v1/customer-lookup", two_identifiers, None))
    for path, params, field in cases:
        reply = ctx.session.get(path, params=params)
        findings.inspected += 1
        shown = "&".join(f"{k}={v}" for k, v in params.items())
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
