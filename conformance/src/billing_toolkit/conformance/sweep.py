"""The kit's baseline traffic: every read operation of the contract once, and a few errors.

The response rules need responses to judge even when schemathesis is not selected
(`--checks money,totals`), and operation_coverage needs each read operation to have been
called with data that exists. So the sweep walks the contract's operation table, not a list
of paths: each read operation is called with its parameters filled from the test data,
matched by format (a parameter whose schema is the contract's AccountNumber gets the test
account, whatever the parameter is called), and a read operation added to the contract is
swept without an edit here. A few deliberate requests follow whose documented answer is an
error (or an echo), so the error rules have something to judge on every run. With
--rate-limit-probe N the sweep ends with a burst of up to N requests, stopping at the first
429, so retry_after has something to judge.
"""

from __future__ import annotations

from dataclasses import replace

from billing_toolkit.conformance.calls import (
    PROBE_OPERATION,
    Call,
    Identifiers,
    call,
    expand,
    filled,
    paging,
)
from billing_toolkit.conformance.checks.tenancy import MISSING_INVOICE
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.discovery import TestData
from billing_toolkit.conformance.http import ApiSession
from billing_toolkit.contract.formats import Formats, IdentifierFormat
from billing_toolkit.contract.operations import Operation

ECHOED_REQUEST_ID = "conformance-echo-0001"


def known_identifiers(data: TestData, customer_phone: str | None) -> dict[IdentifierFormat, str]:
    """What the sweep can put in a request: the identifiers discovery found or was given."""
    known = data.identifiers
    if customer_phone is not None:
        known[IdentifierFormat.PHONE] = customer_phone
    return known


def read_calls(operation: Operation, known: Identifiers, formats: Formats) -> list[Call]:
    """The calls that read `operation` with the known identifiers.

    No call when a required parameter has no known value: nothing sent would succeed, and
    operation_coverage names the operation instead. An optional query parameter the data
    can fill is sent alone, one call each, because a lookup takes exactly one identifier
    (two are a 400, by the contract's prose); with none to fill, the operation is called once.
    """
    given, unfilled = filled(operation, known, formats)
    if unfilled:
        return []
    path = expand(operation, given)
    required = {p.name: value for p, value in given if p.location == "query" and p.required}
    alone = [{p.name: value} for p, value in given if p.location == "query" and not p.required]
    return [Call(path, {**required, **extra}, method=operation.method) for extra in alone or [{}]]


def deliberate_calls(facts: ContractFacts, known: Identifiers) -> list[Call]:
    """Requests whose documented answer is an error or an echo, so every run has some to
    judge: an invoice that exists nowhere (404 invoice_not_found), a page of limit 0 (400
    validation_error), a lookup without an identifier (400) and a client X-Request-Id the
    response must echo. An operation the run's contract lacks is left out."""
    wanted: tuple[tuple[str, Identifiers, dict[str, str], dict[str, str]], ...] = (
        ("getInvoice", {**known, IdentifierFormat.INVOICE_NUMBER: MISSING_INVOICE}, {}, {}),
        ("listInvoices", known, {paging(facts).limit: "0"}, {}),
        ("lookupCustomer", {}, {}, {}),
        (PROBE_OPERATION, known, {}, {"X-Request-Id": ECHOED_REQUEST_ID}),
    )
    calls: list[Call] = []
    for operation_id, identifiers, params, headers in wanted:
        operation = facts.contract.operations.get(operation_id)
        if operation is not None:
            calls += [
                replace(request.with_params(params), headers=headers)
                for request in read_calls(operation, identifiers, facts.formats)
            ]
    return calls


def baseline_calls(facts: ContractFacts, data: TestData, customer_phone: str | None) -> list[Call]:
    """Every read operation with the test data, in contract order, then the deliberate ones."""
    known = known_identifiers(data, customer_phone)
    reads = [
        request
        for operation in facts.contract.operations.values()
        if not operation.writes
        for request in read_calls(operation, known, facts.formats)
    ]
    return reads + deliberate_calls(facts, known)


def sweep(
    session: ApiSession, facts: ContractFacts, data: TestData, customer_phone: str | None
) -> None:
    """Send the baseline calls; the session records them for the response rules."""
    for request in baseline_calls(facts, data, customer_phone):
        session.send(request)


def provoke_rate_limit(session: ApiSession, facts: ContractFacts, attempts: int) -> int:
    """Send up to `attempts` requests back to back; the number sent before the first 429."""
    probe = call(facts, PROBE_OPERATION, {})
    for sent in range(1, attempts + 1):
        if session.send(probe).status == 429:
            return sent
    return attempts
