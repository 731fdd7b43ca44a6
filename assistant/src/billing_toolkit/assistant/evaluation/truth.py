"""Verified-wrong: a sent reply whose figures or identifiers differ from the system of record.

Precisely, a reply is verified-wrong when it states any of:
- an identifier (invoice, account, payment, cédula/RIF, phone) that is not in the customer's
  own record, not one the operator publishes (its RIF, its phone, its format examples) and
  not in a knowledge-base chunk the reply cites — except that a reply with no amount in it may
  repeat an identifier the subscriber wrote in that message (that is how "INV-… was not found
  on your account" reads);
- an amount (`USD 45,00`, `Bs. 1.234,56`, `USD -5,00`), read exactly as the grounding verifier
  reads it (`text/amounts.py`: the last `.` or `,` is the decimal mark, a minus in any
  spelling is part of the value), whose signed value is not a money value of the record, not
  the difference between an invoice and the one before it (the total, or the sum of one kind
  of line), not the late fees of the overdue invoices summed, and not in a cited chunk; a figure after an ambiguous detached dash (`- 0,16`) is
  wrong unless both of its readings are backed, and backs nothing as chunk text;
- a date whose value is not a date of the record or of a cited chunk (a date written without a
  year matches on month and day; a date that cannot be read unambiguously is wrong).

The record is read from the billing API by `SystemOfRecord`, not from the assistant's own tool
results, so a bug shared by the client and the pipeline still shows up here.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from billing_toolkit.assistant.evaluation.record import CustomerRecord
from billing_toolkit.assistant.text.amounts import AmountMention, find_amounts, wire_amount
from billing_toolkit.assistant.text.dates import DateMention, find_dates
from billing_toolkit.assistant.text.identifiers import Identifier, IdentifierKind, find_identifiers

_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")

IdentifierKey = tuple[IdentifierKind, str]


@dataclass(frozen=True, slots=True)
class Facts:
    identifiers: frozenset[IdentifierKey]
    amounts: frozenset[Decimal]
    dates: frozenset[date]

    def __or__(self, other: Facts) -> Facts:
        return Facts(
            self.identifiers | other.identifiers,
            self.amounts | other.amounts,
            self.dates | other.dates,
        )


NO_FACTS = Facts(frozenset(), frozenset(), frozenset())


def _leaves(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _leaves(item)
    elif isinstance(value, str):
        yield value


def _invoice_differences(record: CustomerRecord) -> set[Decimal]:
    """What `bill_change` may state: each invoice against the one before it."""

    def by_kind(invoice: dict[str, Any]) -> dict[str, Decimal]:
        sums: dict[str, Decimal] = {}
        for line in invoice["line_items"]:
            sums[line["kind"]] = sums.get(line["kind"], Decimal(0)) + Decimal(line["amount"])
        return sums

    differences: set[Decimal] = set()
    ordered = record.invoices_by_issue()
    for previous, latest in itertools.pairwise(ordered):
        differences.add(Decimal(latest["total"]) - Decimal(previous["total"]))
        before, after = by_kind(previous), by_kind(latest)
        differences |= {
            after.get(k, Decimal(0)) - before.get(k, Decimal(0))
            for k in before.keys() | after.keys()
        }
    return differences


def _overdue_late_fees(record: CustomerRecord) -> Decimal:
    """What `arrears` may state: the late-fee lines of the overdue invoices, summed."""
    return sum(
        (
            Decimal(line["amount"])
            for invoice in record.invoices
            if invoice["status"] == "overdue"
            for line in invoice["line_items"]
            if line["kind"] == "late_fee"
        ),
        Decimal(0),
    )


def _resource_facts(resources: Any) -> Facts:
    """Every identifier, wire amount and ISO date in API resources (JSON)."""
    leaves = list(_leaves(resources))
    identifiers = {i.key for leaf in leaves for i in find_identifiers(leaf)}
    amounts = {value for leaf in leaves if (value := wire_amount(leaf)) is not None}
    dates = {
        date(int(m[1]), int(m[2]), int(m[3])) for leaf in leaves if (m := _ISO_DATE.match(leaf))
    }
    return Facts(frozenset(identifiers), frozenset(amounts), frozenset(dates))


def record_facts(record: CustomerRecord | None) -> Facts:
    """Every identifier, money value and date in the customer's record."""
    if record is None:
        return NO_FACTS
    facts = _resource_facts(
        [
            record.customer,
            record.balance,
            record.subscription,
            list(record.invoices),
            list(record.payments),
        ]
    )
    derived = _invoice_differences(record) | {_overdue_late_fees(record)}
    return facts | Facts(frozenset(), frozenset(derived), frozenset())


CENT = Decimal("0.01")


def rate_facts(
    record: CustomerRecord | None,
    reports: Sequence[dict[str, Any]],
    rates: Sequence[dict[str, Any]],
) -> Facts:
    """What a turn about the rate or a payment report may state besides the record: the
    account's payment reports as they are after the turn, each rate's day and the day it
    was published for, and the record's amount due in USD converted at each rate (VES =
    USD × rate, half-up to the cent — the contract's rule, computed here, not by the client).
    A rate has four decimals, so it is no amount: the judge reads its days only."""
    facts = _resource_facts(
        [list(reports), [{"d": r["date"], "e": r["effective_date"]} for r in rates]]
    )
    if record is None or record.balance.get("currency") != "USD":
        return facts
    due = Decimal(str(record.balance["amount_due"]))
    converted = {(due * Decimal(r["rate"])).quantize(CENT, rounding=ROUND_HALF_UP) for r in rates}
    return facts | Facts(frozenset(), frozenset(converted), frozenset())


def _amounts(
    text: str, identifiers: Sequence[Identifier], dates: Sequence[DateMention]
) -> list[AmountMention]:
    """The amounts of `text` outside its identifiers and dates (each judged as what it is)."""
    keys = [(i.start, i.end) for i in identifiers] + [(d.start, d.end) for d in dates]
    return [
        a
        for a in find_amounts(text)
        if not any(start < a.end and a.start < end for start, end in keys)
    ]


def text_facts(texts: Sequence[str]) -> Facts:
    """The identifiers, amounts and dates written in `texts` (chunks, operator identifiers)."""
    identifiers: set[IdentifierKey] = set()
    amounts: set[Decimal] = set()
    dates: set[date] = set()
    for text in texts:
        found, mentions = find_identifiers(text), find_dates(text)
        identifiers |= {i.key for i in found}
        dates |= {m.value for m in mentions if m.value is not None}
        amounts |= {a.value for a in _amounts(text, found, mentions) if not a.ambiguous}
    return Facts(frozenset(identifiers), frozenset(amounts), frozenset(dates))


def _backed(amount: AmountMention, values: frozenset[Decimal]) -> bool:
    """An ambiguous figure must be backed under both readings, as the verifier holds it."""
    if amount.ambiguous:
        return amount.value in values and -amount.value in values
    return amount.value in values


def wrong_items(reply: str, facts: Facts, message: str) -> list[str]:
    """What in `reply` the facts do not back (empty: the reply is not verified-wrong)."""
    found, mentions = find_identifiers(reply), find_dates(reply)
    amounts = _amounts(reply, found, mentions)
    echoed = {i.key for i in find_identifiers(message)} if not amounts else set()
    wrong = [i.literal for i in found if i.key not in facts.identifiers and i.key not in echoed]
    wrong += [a.token for a in amounts if not _backed(a, facts.amounts)]
    month_days = {(d.month, d.day) for d in facts.dates}
    for mention in mentions:
        if mention.value is not None:
            backed = mention.value in facts.dates
        else:
            backed = mention.month_day is not None and mention.month_day in month_days
        if not backed:
            wrong.append(mention.literal)
    return wrong
