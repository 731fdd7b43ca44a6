"""Why this bill differs from the previous one: a pure comparison of two invoices.

Lines are compared by `kind` (plan charge, tax, late fee...), not by description: a plan
charge's description carries its billing period, so it changes every month while the
charge itself may not. Several lines of one kind are summed. Every difference is computed
with `Decimal` on the amounts exactly as the API gave them, so the figures stated in the
evidence are exact and citable.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from billing_toolkit.client.models.billing import Invoice, LineItemKind

KIND_ORDER = {kind: position for position, kind in enumerate(LineItemKind)}


@dataclass(frozen=True, slots=True)
class KindTotal:
    """The lines of one kind on one invoice."""

    kind: LineItemKind
    amount: Decimal
    descriptions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class KindChange:
    kind: LineItemKind
    previous: Decimal
    latest: Decimal

    @property
    def difference(self) -> Decimal:
        return self.latest - self.previous


@dataclass(frozen=True, slots=True)
class BillChange:
    """Latest invoice against the previous one. Differences are None across currencies."""

    latest: Invoice
    previous: Invoice
    appeared: tuple[KindTotal, ...]
    disappeared: tuple[KindTotal, ...]
    changed: tuple[KindChange, ...]
    unchanged: tuple[KindTotal, ...]

    @property
    def same_currency(self) -> bool:
        return self.latest.currency == self.previous.currency

    @property
    def total_difference(self) -> Decimal | None:
        return self.latest.total - self.previous.total if self.same_currency else None


def totals_by_kind(invoice: Invoice) -> dict[LineItemKind, KindTotal]:
    """Each kind's summed amount and its descriptions, in the contract's kind order."""
    amounts: dict[LineItemKind, Decimal] = defaultdict(Decimal)
    descriptions: dict[LineItemKind, list[str]] = defaultdict(list)
    for line in invoice.line_items:
        amounts[line.kind] += line.amount
        descriptions[line.kind].append(line.description)
    return {
        kind: KindTotal(kind, amounts[kind], tuple(descriptions[kind]))
        for kind in sorted(amounts, key=KIND_ORDER.__getitem__)
    }


def compare(latest: Invoice, previous: Invoice) -> BillChange:
    """Which kinds of line appeared, disappeared, changed (and by how much) or stayed equal."""
    now, before = totals_by_kind(latest), totals_by_kind(previous)
    changed: list[KindChange] = []
    unchanged: list[KindTotal] = []
    for kind in now.keys() & before.keys():
        if now[kind].amount == before[kind].amount:
            unchanged.append(now[kind])
        else:
            changed.append(KindChange(kind, before[kind].amount, now[kind].amount))
    return BillChange(
        latest=latest,
        previous=previous,
        appeared=tuple(now[k] for k in now if k not in before),
        disappeared=tuple(before[k] for k in before if k not in now),
        changed=tuple(sorted(changed, key=lambda c: KIND_ORDER[c.kind])),
        unchanged=tuple(sorted(unchanged, key=lambda t: KIND_ORDER[t.kind])),
    )
