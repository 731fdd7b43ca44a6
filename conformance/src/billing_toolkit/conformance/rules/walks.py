"""Complete cursor walks found in the run's traffic: the whole list at one epoch.

A balance can only be compared with *all* of an account's open invoices, so the rules that
relate them look for a walk that started without a cursor, followed each `next_cursor` and
ended on a null one, every page in the same epoch. Whoever sent the pages (discovery, a
probe, schemathesis's stateful phase) does not matter.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from billing_toolkit.conformance.rules.observations import Ledger, Observation

FILTERS = ("status", "period_from", "period_to")
CURSOR = "cursor"


@dataclass
class Walk:
    """The pages of one walk, in order; `complete` once a page ended it."""

    operation_id: str
    account: str
    epoch: int
    filters: tuple[tuple[str, str], ...]
    pages: list[Observation] = field(default_factory=list)
    complete: bool = False

    @property
    def items(self) -> list[dict[str, Any]]:
        return [item for page in self.pages for item in page.items()]

    @property
    def last(self) -> Observation:
        return self.pages[-1]


def _next_cursor(page: Observation) -> str | None:
    body = page.body()
    cursor = body.get("next_cursor") if isinstance(body, dict) else None
    return cursor if isinstance(cursor, str) and cursor else None


def walks(ledger: Ledger, operation_ids: Iterable[str]) -> list[Walk]:
    """Every walk of these list operations (complete or not), in the order they started."""
    wanted = tuple(operation_ids)
    found: list[Walk] = []
    open_walks: dict[str, Walk] = {}
    for page in ledger.of(*wanted):
        if page.account is None or page.operation_id is None:
            continue
        filters = tuple((name, page.query[name]) for name in FILTERS if name in page.query)
        cursor = page.query.get(CURSOR)
        if cursor is None:
            walk = Walk(page.operation_id, page.account, page.epoch, filters)
            found.append(walk)
        else:
            candidate = open_walks.pop(cursor, None)
            if candidate is None or candidate.epoch != page.epoch:
                continue
            walk = candidate
        walk.pages.append(page)
        following = _next_cursor(page)
        if following is None:
            walk.complete = True
        else:
            open_walks[following] = walk
    return found


def complete_walks(ledger: Ledger, operation_id: str, *, filtered: bool = False) -> list[Walk]:
    """The complete walks of `operation_id` (unfiltered ones only unless `filtered`)."""
    return [
        walk
        for walk in walks(ledger, [operation_id])
        if walk.complete and (filtered or not walk.filters)
    ]


def walks_by_state(ledger: Ledger, operation_id: str) -> dict[tuple[str, int], Walk]:
    """(account, epoch) → a complete unfiltered walk of `operation_id` in that state: what a
    response of the same account and epoch must agree with."""
    return {(w.account, w.epoch): w for w in complete_walks(ledger, operation_id)}
