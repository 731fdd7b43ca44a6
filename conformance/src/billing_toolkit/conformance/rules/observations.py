"""Every exchange of a run, in the order it happened, read as what it says about an account.

The business rules relate figures across responses (a balance and the invoices behind it),
and those figures change when money moves. So each observation carries its account and an
*epoch*: the number of payments booked on that account before it. Two responses of the same
account and epoch describe the same state and must agree; responses across a booked payment
are never compared. Bias: when the kit cannot tell whether a payment was booked (a 201 that
says it is a replay), it trusts the header, because a replay that booked money is what the
idempotency rules judge, not the balance rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.exchange import Exchange

ACCOUNT_PARAMETER = "accountNumber"


@dataclass(frozen=True)
class Observation:
    """One exchange with the operation it is, its parameters, its account and epoch."""

    index: int
    exchange: Exchange
    operation_id: str | None
    path_params: dict[str, str]
    query: dict[str, str]
    account: str | None
    epoch: int
    other_tenant: bool

    @property
    def ok(self) -> bool:
        return 200 <= self.exchange.status < 300 and self.exchange.is_json()

    def body(self) -> Any:
        return self.exchange.json()

    def items(self) -> list[dict[str, Any]]:
        """The objects of a page's `data` ([] for anything else)."""
        body = self.body()
        data = body.get("data") if isinstance(body, dict) else None
        return [item for item in data if isinstance(item, dict)] if isinstance(data, list) else []


@dataclass
class Ledger:
    """The run's observations, and what the kit knows about the accounts it saw."""

    observations: list[Observation] = field(default_factory=list)
    currencies: dict[str, str] = field(default_factory=dict)
    billing_days: dict[str, int] = field(default_factory=dict)
    primary_accounts: set[str] = field(default_factory=set)

    def of(self, *operation_ids: str, ok: bool = True) -> Iterator[Observation]:
        """The primary tenant's observations of these operations (successful ones by default)."""
        for seen in self.observations:
            if seen.operation_id in operation_ids and not seen.other_tenant and (seen.ok or not ok):
                yield seen


BOOKS_NOTHING = frozenset({"createPaymentReport"})
"""Writes that move no money (`payment_report.pending`): they start no new epoch, so a
balance read after one is still compared with the invoices read before it."""


def _booked(exchange: Exchange, operation_id: str | None) -> bool:
    return (
        operation_id not in BOOKS_NOTHING
        and exchange.method == "POST"
        and exchange.status == 201
        and exchange.response_header("Idempotent-Replayed") != "true"
    )


def build_ledger(
    exchanges: Iterable[Exchange], facts: ContractFacts, other_tenant_key: str | None
) -> Ledger:
    """Read the exchanges in order into observations, epochs and account facts."""
    ledger = Ledger()
    epochs: dict[str, int] = {}
    for index, exchange in enumerate(exchanges):
        if exchange.status == 0:
            continue
        found = facts.matcher.match(exchange.method, exchange.path)
        operation, params = found if found is not None else (None, {})
        account = params.get(ACCOUNT_PARAMETER)
        authorization = exchange.request_header("Authorization") or ""
        other = bool(other_tenant_key) and authorization == f"Bearer {other_tenant_key}"
        seen = Observation(
            index=index,
            exchange=exchange,
            operation_id=operation.operation_id if operation is not None else None,
            path_params=params,
            query=dict(parse_qsl(urlsplit(exchange.url).query)),
            account=account,
            epoch=epochs.get(account or "", 0),
            other_tenant=other,
        )
        ledger.observations.append(seen)
        if other or not seen.ok:
            continue
        _learn(ledger, seen)
        if account is not None and _booked(exchange, seen.operation_id):
            epochs[account] = epochs.get(account, 0) + 1
    return ledger


def _learn(ledger: Ledger, seen: Observation) -> None:
    """Account facts a successful response states: its currency and billing day."""
    body = seen.body()
    if not isinstance(body, dict):
        return
    if seen.operation_id in ("getCustomer", "lookupCustomer"):
        number, currency = body.get("account_number"), body.get("currency")
        if isinstance(number, str) and isinstance(currency, str):
            ledger.currencies.setdefault(number, currency)
            ledger.primary_accounts.add(number)
    if seen.operation_id == "getSubscription" and seen.account is not None:
        day = body.get("billing_day")
        if isinstance(day, int):
            ledger.billing_days.setdefault(seen.account, day)
