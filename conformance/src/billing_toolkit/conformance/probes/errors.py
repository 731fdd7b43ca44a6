"""Error responses to requests that carry `X-Request-Id`: each must echo it.

The sweep sends one echo probe on a success; support tickets are mostly about errors, and
error paths (router 404s, validation, auth, the problem renderer) are where a middleware
in the wrong order forgets the header. The `request_id.echo` judge reads these responses.
"""

from __future__ import annotations

from dataclasses import replace

from billing_toolkit.conformance.calls import PROBE_OPERATION, Call, paging
from billing_toolkit.conformance.checks.tenancy import MISSING_ACCOUNT, MISSING_INVOICE
from billing_toolkit.conformance.http import Identity
from billing_toolkit.conformance.probes.base import Probe, ProbeContext, ProbeFindings
from billing_toolkit.contract.formats import IdentifierFormat

UNKNOWN_PATH = "/v1/conformance-no-such-route"


def run(ctx: ProbeContext) -> ProbeFindings:
    scenario = ctx.scenario
    limit = paging(scenario.facts).limit
    requests: list[tuple[Call, Identity]] = [
        (
            scenario.call("getInvoice", {IdentifierFormat.INVOICE_NUMBER: MISSING_INVOICE}),
            Identity.PRIMARY,
        ),
        (
            scenario.call("getCustomer", {IdentifierFormat.ACCOUNT_NUMBER: MISSING_ACCOUNT}),
            Identity.PRIMARY,
        ),
        (scenario.call("listInvoices").with_params({limit: "0"}), Identity.PRIMARY),
        (scenario.call("listInvoices").with_params({"cursor": "tampered"}), Identity.PRIMARY),
        (scenario.call(PROBE_OPERATION), Identity.NONE),
        (scenario.call(PROBE_OPERATION), Identity.INVALID),
        (Call(UNKNOWN_PATH), Identity.PRIMARY),
        (replace(scenario.call(PROBE_OPERATION), method="DELETE"), Identity.PRIMARY),
    ]
    for number, (request, identity) in enumerate(requests, start=1):
        tagged = replace(request, headers={"X-Request-Id": f"conformance-error-{number:04d}"})
        scenario.session.send(tagged, identity=identity)
    return {}


PROBE = Probe(name="request_id_on_errors", rules=("request_id.echo",), run=run)
