"""`payment_report.*` on every payment report the run created, fetched or listed.

A report is judged by what it says of itself (a pending report names no payment, a
verified one names exactly one), against the other reports of the tenant (a reference is
verified once, a payment belongs to one report), against the payments the run listed (a
verified report *is* its payment) and against the requests that made it (one key, one
report). Bias: a pair of responses is compared only when both describe the report in
the same status, since verification may legitimately happen between them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import date, datetime
from typing import Any

from billing_toolkit.conformance.checks.base import Findings
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.rules.base import RuleJudge, amount, report, resources_in
from billing_toolkit.conformance.rules.observations import Ledger, Observation
from billing_toolkit.conformance.rules.payments import payments

REPORT_KEYS = frozenset({"report_id", "status", "method", "amount", "currency", "reference"})
RESOLUTION = ("payment_id", "credited_amount", "exchange_rate", "rejection_reason", "resolved_at")
METHOD_CURRENCY = {"pago_movil": "VES", "bank_transfer": "VES", "zelle": "USD"}
"""The one currency each reported method is paid in (`payment_report.method_currency`)."""
DEFAULT_LIMIT = 20


def payment_reports(ledger: Ledger) -> Iterator[tuple[Observation, dict[str, Any]]]:
    """(observation, report) for every report created, replayed, fetched or listed."""
    yield from resources_in(ledger, "createPaymentReport", "createPaymentReport", REPORT_KEYS)
    yield from resources_in(ledger, "getPaymentReport", "listPaymentReports", REPORT_KEYS)


def _moment(text: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(text))
    except ValueError:
        return None


def _pending_problems(resource: dict[str, Any], created_now: bool) -> list[str]:
    ident, status = resource["report_id"], resource["status"]
    problems = []
    if created_now and status != "pending_verification":
        problems.append(f"{ident}: a new report is {status}, not pending_verification")
    named = [name for name in RESOLUTION if resource.get(name) is not None]
    if status == "pending_verification" and named:
        problems.append(f"{ident}: pending, yet it names {', '.join(named)}")
    created, resolved = _moment(resource.get("created_at")), _moment(resource.get("resolved_at"))
    if status != "pending_verification" and resolved is None:
        problems.append(f"{ident}: {status} without resolved_at")
    if created is not None and resolved is not None and resolved < created:
        problems.append(f"{ident}: resolved_at is before created_at")
    try:
        paid = date.fromisoformat(str(resource.get("payment_date")))
    except ValueError:
        return problems
    if created is not None and paid > created.date():
        problems.append(f"{ident}: payment_date {paid} is after the day it was reported")
    return problems


def judge_pending(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    for seen, resource in payment_reports(ledger):
        report(
            findings, seen, _pending_problems(resource, seen.operation_id == "createPaymentReport")
        )
    return findings


def _resolution_problems(resource: dict[str, Any]) -> list[str]:
    ident, status = resource["report_id"], resource["status"]
    if status == "verified":
        lacking = [n for n in ("payment_id", "credited_amount") if resource.get(n) is None]
        extra = ["rejection_reason"] if resource.get("rejection_reason") is not None else []
        return [f"{ident}: verified without {n}" for n in lacking] + [
            f"{ident}: verified with a {n}" for n in extra
        ]
    if status == "rejected":
        problems = (
            [] if resource.get("rejection_reason") else [f"{ident}: rejected without a reason"]
        )
        named = [n for n in ("payment_id", "credited_amount") if resource.get(n) is not None]
        return problems + [f"{ident}: rejected, yet it names {n}" for n in named]
    return []


def judge_verified(ledger: Ledger, facts: ContractFacts) -> Findings:
    """Each report's resolution fields; a payment named by two reports; a verified report
    against its payment (amount, reference and method) wherever the run listed it."""
    findings = Findings()
    listed = {str(p["payment_id"]): p for _, p in payments(ledger)}
    owners: dict[str, str] = {}
    for seen, resource in payment_reports(ledger):
        if resource["status"] not in ("verified", "rejected"):
            continue
        problems = _resolution_problems(resource)
        ident, paid = str(resource["report_id"]), resource.get("payment_id")
        if resource["status"] == "verified" and isinstance(paid, str):
            owner = owners.setdefault(paid, ident)
            if owner != ident:
                problems.append(f"{ident}: names {paid}, which {owner} already became")
            payment = listed.get(paid) or {}
            credited = amount(resource.get("credited_amount"), facts)
            booked = amount(payment.get("amount"), facts)
            # an amount that is not money is the money rule's finding, not a second one here
            if payment and (
                (None not in (booked, credited) and booked != credited)
                or payment.get("reference") != resource["reference"]
                or payment.get("method") != resource["method"]
            ):
                problems.append(
                    f"{ident}: its payment {paid} is {payment.get('amount')} by "
                    f"{payment.get('method')} with reference {payment.get('reference')}, not "
                    f"{credited} by {resource['method']} with {resource['reference']}"
                )
        report(findings, seen, problems)
    return findings


def judge_duplicates(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    verified: dict[tuple[Any, Any], str] = {}
    for seen, resource in payment_reports(ledger):
        claim = (resource.get("bank"), resource["reference"])
        problems = []
        if resource["status"] == "verified":
            first = verified.setdefault(claim, str(resource["report_id"]))
            if first != resource["report_id"]:
                problems.append(
                    f"{resource['report_id']}: reference {claim[1]} of bank {claim[0]} is "
                    f"verified twice (also {first})"
                )
        report(findings, seen, problems)
    return findings


def judge_method_currency(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    for seen, resource in payment_reports(ledger):
        method, currency = resource["method"], resource["currency"]
        allowed = METHOD_CURRENCY.get(str(method)) == currency
        ident, problems = resource["report_id"], []
        if resource["status"] == "verified" and not allowed:
            problems.append(f"{ident}: {method} in {currency} was verified")
        if resource.get("rejection_reason") == "currency_not_allowed" and allowed:
            problems.append(f"{ident}: {method} in {currency} is allowed, yet rejected for it")
        report(findings, seen, problems)
    return findings


def judge_idempotency(ledger: Ledger, facts: ContractFacts) -> Findings:
    """Per key: a 201 needs the key, every 201 of a key is the first one's body, and a
    replayed 201 follows a first one."""
    findings = Findings()
    first: dict[str, Any] = {}
    for seen in ledger.of("createPaymentReport"):
        key = seen.exchange.request_header("Idempotency-Key")
        replayed = seen.exchange.response_header("Idempotent-Replayed") == "true"
        problems = []
        if key is None:
            problems.append("a report without Idempotency-Key was recorded")
        elif key not in first:
            first[key] = seen.body()
            if replayed:
                problems.append(f"key {key}: the first 201 says it is a replay")
        elif seen.body() != first[key]:
            problems.append(f"key {key}: the replay is not the first 201's body")
        report(findings, seen, problems)
    return findings


def _order(resource: dict[str, Any]) -> tuple[str, str]:
    return str(resource.get("created_at")), str(resource["report_id"])


def judge_listed(ledger: Ledger, facts: ContractFacts) -> Findings:
    """Each page: within `limit`, newest first, no report twice in a walk's pages; a listed
    report equals the same report fetched or created in the same status."""
    findings = Findings()
    single: dict[tuple[str, str], dict[str, Any]] = {}
    for seen, resource in payment_reports(ledger):
        if seen.operation_id != "listPaymentReports":
            single.setdefault((str(resource["report_id"]), str(resource["status"])), resource)
    walked: dict[str, set[str]] = defaultdict(set)
    for seen in ledger.of("listPaymentReports"):
        items = [i for i in seen.items() if REPORT_KEYS <= i.keys()]
        limit = int(seen.query.get("limit", DEFAULT_LIMIT))
        problems = []
        if len(items) > limit:
            problems.append(f"{len(items)} reports on a page of limit {limit}")
        keys = [_order(item) for item in items]
        if keys != sorted(keys, reverse=True):
            problems.append("the page is not newest first (created_at, then report_id)")
        if "cursor" not in seen.query:
            walked[str(seen.account)] = set()  # a first page starts a new walk
        walk = walked[str(seen.account)]
        for item in items:
            ident = str(item["report_id"])
            if ident in walk:
                problems.append(f"{ident} is listed twice in one walk")
            walk.add(ident)
            other = single.get((ident, str(item["status"])))
            if other is not None and other != item:
                changed = sorted(k for k in item if item.get(k) != other.get(k))
                problems.append(f"{ident}: listed {', '.join(changed)} differ from its own answer")
        report(findings, seen, problems)
    return findings


JUDGES = (
    RuleJudge("payment_report.pending", judge_pending),
    RuleJudge("payment_report.verified", judge_verified),
    RuleJudge("payment_report.duplicate_reference", judge_duplicates),
    RuleJudge("payment_report.method_currency", judge_method_currency),
    RuleJudge("payment_report.idempotency", judge_idempotency),
    RuleJudge("payment_report.listed", judge_listed),
)
