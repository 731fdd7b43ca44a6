"""Pagination rules on every page and every walk the run saw.

`pagination.walk`: a page holds at most `limit` items, in the documented order (newest
first: invoices by issue_date then number, payments by received_at then id), and a walk
never yields an item twice. `pagination.filter`: every item belongs to the path's account
and matches the request's `status` and period filters.
"""

from __future__ import annotations

from collections import Counter
from datetime import date
from typing import Any

from billing_toolkit.conformance.checks.base import Findings
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.rules.base import RuleJudge
from billing_toolkit.conformance.rules.observations import Ledger
from billing_toolkit.conformance.rules.walks import walks

LISTS = ("listInvoices", "listPayments")
ORDER: dict[str, tuple[str, str]] = {
    "listInvoices": ("issue_date", "invoice_number"),
    "listPayments": ("received_at", "payment_id"),
}


def default_limit(facts: ContractFacts) -> int:
    shared = facts.contract.document["components"]["parameters"]["Limit"]
    return int(shared["schema"].get("default", 20))


def _key(item: dict[str, Any], operation_id: str) -> tuple[str, str]:
    first, second = ORDER[operation_id]
    return str(item.get(first)), str(item.get(second))


def judge_walk(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    for walk in walks(ledger, LISTS):
        findings.inspected += len(walk.pages)
        for page in walk.pages:
            limit = page.query.get("limit", str(default_limit(facts)))
            if limit.isdigit() and len(page.items()) > int(limit):
                findings.add(
                    f"{page.exchange.describe()}: {len(page.items())} items with limit={limit}",
                    page.exchange,
                )
        keys = [_key(item, walk.operation_id) for item in walk.items]
        if keys != sorted(keys, reverse=True):
            findings.add(
                f"{walk.last.exchange.describe()}: the walk is not newest first "
                f"({' then '.join(ORDER[walk.operation_id])}, descending)",
                walk.last.exchange,
            )
        repeated = sorted(k[1] for k, count in Counter(keys).items() if count > 1)
        if repeated:
            findings.add(
                f"{walk.last.exchange.describe()}: the walk yielded {', '.join(repeated[:5])} "
                "more than once",
                walk.last.exchange,
            )
    return findings


def _is_date(value: str | None) -> bool:
    if value is None:
        return True
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _mismatch(item: dict[str, Any], query: dict[str, str], account: str) -> str | None:
    if item.get("account_number") != account:
        return f"belongs to account {item.get('account_number')!r}, not {account}"
    status = query.get("status")
    if status is not None and item.get("status") != status:
        return f"has status {item.get('status')!r}, the filter asked for {status!r}"
    period = item.get("billing_period")
    start = str(period.get("start")) if isinstance(period, dict) else None
    if not all(_is_date(query.get(name)) for name in ("period_from", "period_to")):
        return None  # a malformed filter is the validation check's business
    if start is not None and query.get("period_from") and start < query["period_from"]:
        return f"starts {start}, before period_from {query['period_from']}"
    if start is not None and query.get("period_to") and start > query["period_to"]:
        return f"starts {start}, after period_to {query['period_to']}"
    return None


def judge_filter(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    for page in ledger.of(*LISTS):
        if page.account is None:
            continue
        findings.inspected += 1
        for item in page.items():
            problem = _mismatch(item, page.query, page.account)
            if problem is not None:
                ident = item.get("invoice_number") or item.get("payment_id")
                findings.add(f"{page.exchange.describe()}: {ident} {problem}", page.exchange)
    return findings


JUDGES = (RuleJudge("pagination.walk", judge_walk), RuleJudge("pagination.filter", judge_filter))
