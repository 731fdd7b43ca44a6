"""`exchange_rate.*` on every rate the run read and every verified report it saw.

The conversion is the contract's: VES = USD × rate and USD = VES ÷ rate, half-up to the
cent, recomputed here in Decimal and compared digit for digit. The carried-over rule is
judged per response (a weekend is always carried, `carried_over` says whether
`effective_date` is `date`) and across responses (one effective date, one rate).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from billing_toolkit.conformance.checks.base import Findings
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.rules.base import RuleJudge, amount, report
from billing_toolkit.conformance.rules.observations import Ledger, Observation
from billing_toolkit.conformance.rules.reports import payment_reports
from billing_toolkit.contract.conversion import convert

RATE_KEYS = frozenset({"date", "rate", "scale", "effective_date", "carried_over"})


def rate_value(text: Any) -> Decimal | None:
    """A positive decimal-string rate; None for anything else (the schema check says why)."""
    if not isinstance(text, str):
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return value if value.is_finite() and value > 0 else None


def rates(ledger: Ledger) -> Iterator[tuple[Observation, dict[str, Any]]]:
    for seen in ledger.of("getExchangeRate"):
        body = seen.body()
        if isinstance(body, dict) and RATE_KEYS <= body.keys():
            yield seen, body


def _day(text: Any) -> date | None:
    try:
        return date.fromisoformat(str(text))
    except ValueError:
        return None


def _conversion_problems(resource: dict[str, Any], facts: ContractFacts) -> list[str]:
    if "scale" in resource:
        text = str(resource["rate"])
        written = len(text.split(".")[1]) if "." in text else 0
        return (
            []
            if written == resource["scale"]
            else [f"rate {text} is written with {written} decimals, scale says {resource['scale']}"]
        )
    ident, credited = resource.get("report_id"), amount(resource["credited_amount"], facts)
    reported, rate = amount(resource["amount"], facts), resource["exchange_rate"]
    if credited is None or reported is None:
        return []
    if rate is None:
        expected = reported
    elif (value := rate_value(rate)) is None:
        return [f"{ident}: exchange_rate {rate!r} is not a positive decimal"]
    else:
        expected = convert(reported, str(resource["currency"]), value)
    if credited == expected:
        return []
    how = "its amount" if rate is None else f"{reported} at {rate}, half-up"
    return [f"{ident}: credited_amount {credited} is not {expected} ({how})"]


def judge_conversion(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    for seen, rate in rates(ledger):
        report(findings, seen, _conversion_problems(rate, facts))
    for seen, resource in payment_reports(ledger):
        if resource.get("status") == "verified":
            report(findings, seen, _conversion_problems(resource, facts))
    return findings


def _carried_problems(rate: dict[str, Any]) -> list[str]:
    day, effective = _day(rate["date"]), _day(rate["effective_date"])
    if day is None or effective is None:
        return []
    problems = []
    if effective > day:
        problems.append(f"effective_date {effective} is after the date asked, {day}")
    if rate["carried_over"] is not (effective != day):
        problems.append(
            f"carried_over is {rate['carried_over']} with effective_date {effective} for {day}"
        )
    if day.weekday() >= 5 and effective == day:
        problems.append(f"{day} is a {day:%A}, with no publication, yet it is not carried over")
    published = rate.get("published_at")
    try:
        moment = datetime.fromisoformat(str(published))
    except ValueError:
        return problems
    if moment.date() > day:
        problems.append(f"published_at {published} is after the end of {day}")
    return problems


def judge_carried(ledger: Ledger, facts: ContractFacts) -> Findings:
    findings = Findings()
    first: dict[str, tuple[str, Observation]] = {}
    for seen, rate in rates(ledger):
        problems = _carried_problems(rate)
        effective, value = str(rate["effective_date"]), str(rate["rate"])
        known = first.setdefault(effective, (value, seen))
        if known[0] != value:
            problems.append(
                f"the rate of {effective} is {value} here and {known[0]} in "
                f"{known[1].exchange.describe()}"
            )
        report(findings, seen, problems)
    return findings


JUDGES = (
    RuleJudge("exchange_rate.conversion", judge_conversion),
    RuleJudge("exchange_rate.carried_over", judge_carried),
)
