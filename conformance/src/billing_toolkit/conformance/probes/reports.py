"""Exchange rates and payment reports: the cases a client's ordinary traffic rarely shows.

`RATES_PROBE` (read-only) asks the rate of a Saturday and of the business day it must
carry, and reads the test account's reports (a walk and one report by id), so the judges
(`rules/rates.py`, `rules/reports.py`) have a carried day, a published day and reports to
judge. `REPORT_PROBE` (with --allow-writes) reports one payment, replays its key, sends the
key again with a changed amount, reports the same reference under another key and reads the
balance around it all, then reads both reports back: a conformant API replays, refuses the changed body with 409, records
the second report as its own pending report (a duplicate is rejected at verification, never
judged on intake) and books nothing while the reports are pending.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import date, timedelta
from typing import Any

from billing_toolkit.conformance.calls import Call, operation
from billing_toolkit.conformance.checks.base import ScenarioContext
from billing_toolkit.conformance.discovery import iterate_pages
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.probes.base import Probe, ProbeContext, ProbeFindings, finding

PAGE = 2
SATURDAY = 5


def _last_saturday(latest: date) -> date:
    return latest - timedelta(days=(latest.weekday() - SATURDAY) % 7)


def _rate_call(ctx: ScenarioContext, day: date) -> Call:
    found = operation(ctx.facts, "getExchangeRate")
    return Call(found.path.expand(date=day.isoformat()), method=found.method)


def run_rates(ctx: ProbeContext) -> ProbeFindings:
    scenario = ctx.scenario
    found: ProbeFindings = {}
    issued = [str(invoice.get("issue_date")) for invoice in scenario.data.invoices]
    if issued:
        saturday = _last_saturday(date.fromisoformat(max(issued)))
        for day in (saturday, saturday - timedelta(days=1)):
            scenario.session.send(_rate_call(scenario, day))
    else:
        finding(
            found, "exchange_rate.carried_over"
        ).unable = "the test account has no invoice, whose issue date says which days are past"
    pages = iterate_pages(
        scenario.session,
        scenario.facts,
        scenario.data.account_number,
        PAGE,
        operation_id="listPaymentReports",
    )
    first = pages[0].json() if pages and pages[0].status == 200 else None
    data = first.get("data") if isinstance(first, dict) else None
    if isinstance(data, list) and data and isinstance(data[0], dict):
        single = operation(scenario.facts, "getPaymentReport")
        path = single.path.expand(reportId=str(data[0].get("report_id")))
        scenario.session.send(Call(path, method=single.method))
    return found


def _post(ctx: ScenarioContext, key: str, body: dict[str, Any]) -> Exchange:
    request = replace(ctx.call("createPaymentReport"), headers={"Idempotency-Key": key})
    return ctx.session.send(request, json_body=body)


def _balance(ctx: ScenarioContext) -> Any:
    body = ctx.session.send(ctx.call("getBalance")).json()
    return {**body, "as_of": None} if isinstance(body, dict) else body


def _expect(found: ProbeFindings, rule: str, reply: Exchange, status: int, what: str) -> None:
    result = finding(found, rule)
    result.inspected += 1
    if reply.status != status:
        result.add(f"{what}: expected {status}, got {reply.describe()}", reply)


def _report_id(reply: Exchange) -> str | None:
    body = reply.json()
    return str(body.get("report_id")) if reply.status == 201 and isinstance(body, dict) else None


def run_report(ctx: ProbeContext) -> ProbeFindings:
    scenario = ctx.scenario
    found: ProbeFindings = {}
    key = f"report-{scenario.settings.run_id}"
    reference = f"{int(hashlib.sha256(key.encode()).hexdigest()[:12], 16) % 10**10:010d}"
    body = {
        "method": "pago_movil",
        "amount": f"{scenario.settings.payment_amount:.2f}",
        "currency": "VES",
        "reference": reference,
        "bank": "0134",
        "payment_date": max(
            (str(i.get("issue_date")) for i in scenario.data.invoices), default="2024-01-02"
        ),
    }
    before = _balance(scenario)
    first = _post(scenario, key, body)
    _expect(found, "payment_report.idempotency", first, 201, "a new report")
    again = _post(scenario, key, body)
    _expect(found, "payment_report.idempotency", again, 201, "the same key and body again")
    changed = _post(
        scenario, key, {**body, "amount": f"{scenario.settings.payment_amount + 1:.2f}"}
    )
    _expect(found, "payment_report.idempotency", changed, 409, "the same key with amount changed")
    second = _post(scenario, f"{key}-again", body)
    _expect(found, "payment_report.duplicate_reference", second, 201, "the same reference again")
    ids = [_report_id(first), _report_id(second)]
    single = operation(scenario.facts, "getPaymentReport")
    for ident in ids:
        if ident is not None:  # read back, so the judges see both reports as stored
            scenario.session.send(Call(single.path.expand(reportId=ident), method=single.method))
    if None not in ids and ids[0] == ids[1]:
        finding(found, "payment_report.duplicate_reference").add(
            f"a second report of reference {reference} under another key answered the first "
            f"report ({ids[0]}) instead of recording its own",
            second,
        )
    pending = finding(found, "payment_report.pending")
    pending.inspected += 1
    after = _balance(scenario)
    if after != before:
        pending.add("the balance changed while the kit's reports were pending", second)
    return found


RATES_PROBE = Probe(
    name="rates_and_reports",
    rules=("exchange_rate.carried_over", "exchange_rate.conversion", "payment_report.listed"),
    run=run_rates,
)
REPORT_PROBE = Probe(
    name="payment_report_retries",
    rules=(
        "payment_report.idempotency",
        "payment_report.duplicate_reference",
        "payment_report.pending",
    ),
    run=run_report,
    writes=True,
)
