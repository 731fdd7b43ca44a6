"""Invoice rules on every invoice the run saw, alone or inside a page.

`invoice.arithmetic` reuses the figures check of `checks/totals.py` (one definition of what
adds up); `invoice.status` relates the status to what is still owed and to the day the API
says it is (the `as_of` of the nearest balance); `invoice.billing_period` relates the period
to the issue date and to the account's billing day when its subscription was read.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from billing_toolkit.conformance.checks.base import Findings
from billing_toolkit.conformance.checks.totals import invoice_violations
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.rules.base import RuleJudge, amount, resources_in
from billing_toolkit.conformance.rules.observations import Ledger, Observation

ZERO = Decimal("0.00")
INVOICE_KEYS = frozenset({"invoice_number", "status", "line_items", "amount_due"})


def invoices(ledger: Ledger) -> Iterator[tuple[Observation, dict[str, Any]]]:
    """(observation, invoice) for every invoice in a successful primary-tenant response."""
    return resources_in(ledger, "getInvoice", "listInvoices", INVOICE_KEYS)


def iso_date(value: Any) -> date | None:
    try:
        return date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def judge_arithmetic(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    for seen, invoice in invoices(ledger):
        if not {"subtotal", "tax", "total", "amount_paid"} <= invoice.keys():
            continue
        findings.inspected += 1
        for problem in invoice_violations(invoice, facts):
            findings.add(f"{seen.exchange.describe()}: {problem}", seen.exchange)
    return findings


def today_at(ledger: Ledger) -> dict[int, date]:
    """Observation index → the business date of the closest balance at or before it."""
    days: dict[int, date] = {}
    current: date | None = None
    pending: list[int] = []
    for seen in ledger.observations:
        body = seen.body() if seen.operation_id == "getBalance" and seen.ok else None
        as_of = body.get("as_of") if isinstance(body, dict) else None
        if isinstance(as_of, str) and iso_date(as_of[:10]) is not None:
            current = iso_date(as_of[:10])
            for index in pending:
                days[index] = current  # type: ignore[assignment]
            pending = []
        if current is None:
            pending.append(seen.index)
        else:
            days[seen.index] = current
    return days


def judge_status(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    today = today_at(ledger)
    for seen, invoice in invoices(ledger):
        status, due = invoice.get("status"), amount(invoice.get("amount_due"), facts)
        if due is None or status == "void":
            continue
        findings.inspected += 1
        number = invoice.get("invoice_number")
        where = seen.exchange.describe()
        if status == "paid" and due != ZERO:
            findings.add(f"{where}: {number} is paid but still owes {due}", seen.exchange)
        if status in ("open", "overdue") and due <= ZERO:
            findings.add(f"{where}: {number} is {status} but owes {due}", seen.exchange)
        day, due_date = today.get(seen.index), iso_date(invoice.get("due_date"))
        if day is None or due_date is None:
            continue
        if status == "open" and due_date < day:
            findings.add(
                f"{where}: {number} is open but was due {due_date}, before today ({day})",
                seen.exchange,
            )
        if status == "overdue" and due_date >= day:
            findings.add(
                f"{where}: {number} is overdue but is not due until {due_date} (today {day})",
                seen.exchange,
            )
    return findings


def month_later(day: date) -> date:
    """The same day of the next month (billing days are 1–28, so it always exists)."""
    year, month = (day.year + 1, 1) if day.month == 12 else (day.year, day.month + 1)
    return day.replace(year=year, month=month)


def judge_billing_period(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    for seen, invoice in invoices(ledger):
        period = invoice.get("billing_period")
        if not isinstance(period, dict):
            continue
        start, end = iso_date(period.get("start")), iso_date(period.get("end"))
        issued, due = iso_date(invoice.get("issue_date")), iso_date(invoice.get("due_date"))
        if start is None or end is None or issued is None or due is None or start.day > 28:
            continue
        findings.inspected += 1
        number, where = invoice.get("invoice_number"), seen.exchange.describe()
        problems = []
        if start != issued:
            problems.append(f"the period starts {start}, not on the issue date {issued}")
        expected_end = month_later(start) - timedelta(days=1)
        if end != expected_end:
            problems.append(f"the period ends {end}, not the day before the next billing day")
        if due < issued:
            problems.append(f"it is due {due}, before it was issued ({issued})")
        billing_day = ledger.billing_days.get(str(invoice.get("account_number")))
        if billing_day is not None and start.day != billing_day:
            problems.append(
                f"the period starts on day {start.day}, not the billing day {billing_day}"
            )
        for problem in problems:
            findings.add(f"{where}: {number}: {problem}", seen.exchange)
    return findings


JUDGES = (
    RuleJudge("invoice.arithmetic", judge_arithmetic),
    RuleJudge("invoice.status", judge_status),
    RuleJudge("invoice.billing_period", judge_billing_period),
)
