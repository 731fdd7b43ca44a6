"""Verified-wrong: a sent reply whose figures or identifiers differ from the system of record.

Precisely, a reply is verified-wrong when it states any of:
- an identifier (invoice, account, payment, cédula/RIF, phone) that is not in the customer's
  own record, not one the operator publishes (its RIF, its phone, its format examples) and
  not in a knowledge-base chunk the reply cites — except that a reply with no amount in it may
  repeat an identifier the subscriber wrote in that message (that is how "INV-… was not found
  on your account" reads);
- an amount (`USD 45,00`, `Bs. 1.234,56`, `-5.00`; the last `.` or `,` is the decimal mark)
  whose signed value is not a money value of the record, not the difference between an
  invoice and the one before it (the total, or the sum of one kind of line), and not in a cited
  chunk;
- a date whose value is not a date of the record or of a cited chunk (a date written without a
  year matches on month and day; a date that cannot be read unambiguously is wrong).

The record is read from the billing API by `SystemOfRecord`, not from the assistant's own tool
results, so a bug shared by the client and the pipeline still shows up here.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from assistant.dates import find_dates
from assistant.evaluation.record import CustomerRecord
from assistant.identifiers import IdentifierKind, find_identifiers

_MONEY = re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]{2}")
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_AMOUNT_IN_TEXT = re.compile(
    r"(?<![0-9.,])-?(?:[0-9]{1,3}(?:[.,][0-9]{3})+|[0-9]+)[.,][0-9]{2}(?![0-9]|[.,][0-9])")

IdentifierKey = tuple[IdentifierKind, str]


@dataclass(frozen=True, slots=True)
class Facts:
    identifiers: frozenset[IdentifierKey]
    amounts: frozenset[Decimal]
    dates: frozenset[date]

    def __or__(self, other: Facts) -> Facts:
        return Facts(self.identifiers | other.identifiers, self.amounts | other.amounts,
                     self.dates | other.dates)


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
        differences |= {after.get(k, Decimal(0)) - before.get(k, Decimal(0))
                        for k in before.keys() | after.keys()}
    return differences


def record_facts(record: CustomerRecord | None) -> Facts:
    """Every identifier, money value and date in the customer's record."""
    if record is None:
        return NO_FACTS
    leaves = list(_leaves([record.customer, record.balance, record.subscription,
                           list(record.invoices), list(record.payments)]))
    identifiers = {i.key for leaf in leaves for i in find_identifiers(leaf)}
    amounts = {Decimal(leaf) for leaf in leaves if _MONEY.fullmatch(leaf)}
    dates = {date(int(m[1]), int(m[2]), int(m[3]))
             for leaf in leaves if (m := _ISO_DATE.match(leaf))}
    return Facts(frozenset(identifiers), frozenset(amounts | _invoice_differences(record)),
                 frozenset(dates))


def _amount(token: str) -> Decimal:
    cut = max(token.rfind("."), token.rfind(","))
    sign = "-" if token.startswith("-") else ""
    return Decimal(sign + re.sub(r"[^0-9]", "", token[:cut]) + "." + token[cut + 1:])


def _blank(text: str, spans: Iterable[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def text_facts(texts: Sequence[str]) -> Facts:
    """The identifiers, amounts and dates written in `texts` (chunks, operator identifiers)."""
    identifiers: set[IdentifierKey] = set()
    amounts: set[Decimal] = set()
    dates: set[date] = set()
    for text in texts:
        found, mentions = find_identifiers(text), find_dates(text)
        identifiers |= {i.key for i in found}
        dates |= {m.value for m in mentions if m.value is not None}
        rest = _blank(text, [(i.start, i.end) for i in found] +
                      [(m.start, m.end) for m in mentions])
        amounts |= {_amount(m[0]) for m in _AMOUNT_IN_TEXT.finditer(rest)}
    return Facts(frozenset(identifiers), frozenset(amounts), frozenset(dates))


def wrong_items(reply: str, facts: Facts, message: str) -> list[str]:
    """What in `reply` the facts do not back (empty: the reply is not verified-wrong)."""
    found, mentions = find_identifiers(reply), find_dates(reply)
    rest = _blank(reply, [(i.start, i.end) for i in found] + [(m.start, m.end) for m in mentions])
    amounts = [m[0] for m in _AMOUNT_IN_TEXT.finditer(rest)]
    echoed = {i.key for i in find_identifiers(message)} if not amounts else set()
    wrong = [i.literal for i in found if i.key not in facts.identifiers and i.key not in echoed]
    wrong += [token for token in amounts if _amount(token) not in facts.amounts]
    month_days = {(d.month, d.day) for d in facts.dates}
    for mention in mentions:
        if mention.value is not None:
            backed = mention.value in facts.dates
        else:
            backed = mention.month_day is not None and mention.month_day in month_days
        if not backed:
            wrong.append(mention.literal)
    return wrong
