"""The subscription and the plan catalogue: the dates the assistant tells subscribers, the
plan change they scheduled, the plan and price they pay.

`subscription.billing_dates` relates a subscription to the day the API says it is (the
`as_of` of the nearest balance, as `invoice.status` does) and to the customer record's
`created_at`; `subscription.pending_change` and `plan.catalogue` relate it to the
catalogue (`listPlans`) the run read. Bias: a subscription with no balance near it, or a
run that never read the catalogue, is not judged on what needs them.
"""

from __future__ import annotations

import calendar
from datetime import date
from decimal import Decimal
from typing import Any

from billing_toolkit.conformance.checks.base import Findings
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.rules.base import RuleJudge, amount, report
from billing_toolkit.conformance.rules.invoices import iso_date, today_at
from billing_toolkit.conformance.rules.observations import Ledger, Observation

ZERO = Decimal("0.00")
CUSTOMER_READS = ("getCustomer", "lookupCustomer")


def next_billing_date(billing_day: int, today: date) -> date:
    """The first date after `today` on the billing day, clamped to a shorter month's end."""

    def on(year: int, month: int) -> date:
        return date(year, month, min(billing_day, calendar.monthrange(year, month)[1]))

    candidate = on(today.year, today.month)
    if candidate > today:
        return candidate
    year, month = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
    return on(year, month)


def subscriptions(ledger: Ledger) -> list[tuple[Observation, dict[str, Any]]]:
    return [
        (seen, body)
        for seen in ledger.of("getSubscription")
        if isinstance(body := seen.body(), dict)
    ]


def customers(ledger: Ledger) -> dict[str, dict[str, Any]]:
    """Account → its customer record as last read in the run."""
    found: dict[str, dict[str, Any]] = {}
    for seen in ledger.of(*CUSTOMER_READS):
        body = seen.body()
        if isinstance(body, dict) and isinstance(body.get("account_number"), str):
            found[body["account_number"]] = body
    return found


def catalogue(ledger: Ledger) -> dict[str, dict[str, Any]] | None:
    """Plan id → plan of the last catalogue the run read; None when it read none."""
    found = None
    for seen in ledger.of("listPlans"):
        plans = [p for p in seen.items() if isinstance(p.get("plan_id"), str)]
        found = {plan["plan_id"]: plan for plan in plans}
    return found


def _date_problems(body: dict[str, Any], today: date, opened: date | None) -> list[str]:
    problems = []
    day, next_date = body.get("billing_day"), body.get("next_billing_date")
    if body.get("status") == "cancelled":
        if next_date is not None:
            problems.append(f"is cancelled but its next_billing_date is {next_date}")
    elif isinstance(day, int) and 1 <= day <= 31:
        expected = next_billing_date(day, today).isoformat()
        if next_date != expected:
            problems.append(
                f"next_billing_date is {next_date!r}, but the next billing day {day} after "
                f"today ({today}) is {expected}"
            )
    start = iso_date(body.get("start_date"))
    if start is not None and start > today:
        problems.append(f"start_date {start} is after today ({today})")
    if start is not None and opened is not None and start < opened:
        problems.append(f"start_date {start} is before the account was opened ({opened})")
    return problems


def judge_billing_dates(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    today = today_at(ledger)
    records = customers(ledger)
    for seen, body in subscriptions(ledger):
        day = today.get(seen.index)
        if day is None:
            continue
        created = str(records.get(seen.account or "", {}).get("created_at", ""))
        report(findings, seen, _date_problems(body, day, iso_date(created[:10])))
    return findings


def _change_problems(body: dict[str, Any], plans: dict[str, Any] | None) -> list[str]:
    change, plan = body.get("pending_change"), body.get("plan")
    if not isinstance(change, dict):
        return []
    problems, target = [], change.get("plan_id")
    if plans is not None and target not in plans:
        problems.append(f"the pending change names {target}, not in the catalogue")
    if isinstance(plan, dict) and target == plan.get("plan_id"):
        problems.append(f"the pending change is to the current plan {target}")
    if change.get("effective_date") != body.get("next_billing_date"):
        problems.append(
            f"the pending change takes effect {change.get('effective_date')}, not on the next "
            f"billing date {body.get('next_billing_date')}"
        )
    return problems


def judge_pending_change(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    plans = catalogue(ledger)
    for seen, body in subscriptions(ledger):
        report(findings, seen, _change_problems(body, plans))
    return findings


def _catalogue_problems(seen: Observation, facts: ContractFacts) -> list[str]:
    ids = [str(plan.get("plan_id")) for plan in seen.items()]
    problems = []
    if ids != sorted(set(ids)):
        problems.append(f"the catalogue is not one entry per plan by plan_id ({', '.join(ids)})")
    for plan in seen.items():
        price = amount(plan.get("monthly_price"), facts)
        if price is not None and price <= ZERO:
            problems.append(f"{plan.get('plan_id')} costs {price}, not a positive amount")
    return problems


def judge_catalogue(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    for seen in ledger.of("listPlans"):
        report(findings, seen, _catalogue_problems(seen, facts))
    plans = catalogue(ledger) or {}
    for seen, body in subscriptions(ledger):
        plan = body.get("plan")
        if isinstance(plan, dict):
            billed = ledger.currencies.get(seen.account or "")
            report(findings, seen, _plan_problems(plan, plans, billed))
    return findings


def _plan_problems(
    plan: dict[str, Any], plans: dict[str, dict[str, Any]], billed: str | None
) -> list[str]:
    problems = []
    listed = plans.get(str(plan.get("plan_id")))
    if listed is not None and listed != plan:
        problems.append(
            f"the plan {plan.get('plan_id')} differs from the catalogue's "
            f"({_difference(plan, listed)})"
        )
    if billed is not None and plan.get("currency") != billed:
        problems.append(
            f"the plan is priced in {plan.get('currency')}, the account is billed in {billed}"
        )
    return problems


def _difference(shown: dict[str, Any], listed: dict[str, Any]) -> str:
    names = sorted(k for k in shown.keys() | listed.keys() if shown.get(k) != listed.get(k))
    return ", ".join(f"{k} {shown.get(k)!r} vs {listed.get(k)!r}" for k in names)


JUDGES = (
    RuleJudge("subscription.billing_dates", judge_billing_dates),
    RuleJudge("subscription.pending_change", judge_pending_change),
    RuleJudge("plan.catalogue", judge_catalogue),
)
