"""A request without a valid key is refused with 401, and the kit's own key is accepted.

A contract that documents 401 lets a fuzzer "pass" while every request is refused
(schemathesis#1385): the kit first proves its key works on an operation, then that the same
request with no key and with an unknown key gets 401 unauthorized with WWW-Authenticate.
"""

from __future__ import annotations

from billing_toolkit.conformance.calls import PROBE_OPERATION
from billing_toolkit.conformance.checks.base import Findings, Scenario, ScenarioContext
from billing_toolkit.conformance.http import Identity


def run(ctx: ScenarioContext) -> Findings:
    findings = Findings(passed_summary="no key and an unknown key get 401; the kit's key gets 200")
    probe = ctx.call(PROBE_OPERATION)
    accepted = ctx.session.send(probe)
    findings.inspected += 1
    if accepted.status != 200:
        findings.add(f"the kit's API key is not accepted: {accepted.describe()}", accepted)
    for identity in (Identity.NONE, Identity.INVALID):
        refused = ctx.session.send(probe, identity=identity)
        findings.inspected += 1
        label = "without a key" if identity is Identity.NONE else "with an unknown key"
        if refused.status != 401:
            findings.add(f"{label}: expected 401, got {refused.describe()}", refused)
            continue
        if not refused.response_header("WWW-Authenticate"):
            findings.add(f"{label}: 401 without a WWW-Authenticate header", refused)
    return findings


SCENARIO = Scenario(
    name="authentication",
    meaning=(
        "The kit's key gets 200 on GET /v1/plans; the same request with no Authorization "
        "header, and with an unknown bearer key, gets 401 (problem code unauthorized) with a "
        "WWW-Authenticate header."
    ),
    remedy=(
        "Authenticate before routing to handlers, answer 401 with WWW-Authenticate: Bearer "
        "for a missing or unknown key, and make sure the key given to the kit is enabled."
    ),
    run=run,
)
