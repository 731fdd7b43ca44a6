"""The QA console's payment-report listing: one tenant's reports, newest first, filtered.

A pure read of the billing state (`BillingStore.read` runs it under the store's lock), in
the contract's wire form (`payment_report_view`: amounts as decimal strings), so the page
shows exactly what `getPaymentReport` would answer. One tenant at a time, like the API: the
console never mixes two operators' subscribers in one table. The payer's phone and national
id are left out: QA follows a report by its id, reference and account, and the page is
refreshed on screens others can see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from billing_toolkit.simulator.handlers.payment_reports import payment_report_view
from billing_toolkit.simulator.state.models import PENDING, BillingState
from billing_toolkit.simulator.state.report_verification import VERIFIED

STATUSES = (PENDING, VERIFIED, "rejected")
SHOWN = 100
"""Reports on the page: a tenant of 300 customers starts with 600 seeded ones."""
_HIDDEN = ("payer_phone", "payer_national_id")


class BadFilter(ValueError):
    """A listing filter no report could match (an unknown tenant or status)."""


@dataclass(frozen=True, slots=True)
class ReportFilter:
    tenant: str
    status: str = ""
    """One of `STATUSES`, or empty for every status."""
    reference: str = ""
    """The exact reference, or empty for every reference."""


@dataclass(frozen=True, slots=True)
class ReportListing:
    rows: list[dict[str, Any]]
    """The newest `SHOWN` matching reports, in wire form without the payer's identifiers."""
    total: int
    """How many reports match (the page may show fewer)."""


def list_reports(state: BillingState, wanted: ReportFilter, shown: int = SHOWN) -> ReportListing:
    """The tenant's reports that match `wanted`, newest first; `BadFilter` for a tenant the
    state does not have or a status the contract does not define."""
    if wanted.tenant not in state.accounts:
        raise BadFilter(f"no tenant {wanted.tenant!r}")
    if wanted.status and wanted.status not in STATUSES:
        raise BadFilter(f"no report status {wanted.status!r}")
    found = [
        report
        for account in state.accounts[wanted.tenant].values()
        for report in account.payment_reports
        if (not wanted.status or report.status == wanted.status)
        and (not wanted.reference or report.reference == wanted.reference)
    ]
    found.sort(key=lambda report: (report.created_at, report.report_id), reverse=True)
    rows = [
        {key: value for key, value in payment_report_view(report).items() if key not in _HIDDEN}
        for report in found[:shown]
    ]
    return ReportListing(rows, len(found))
