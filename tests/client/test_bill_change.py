"""Comparing two invoices: by kind of line, summed, with exact Decimal differences."""

from __future__ import annotations

from decimal import Decimal

from billing_toolkit.client.bill_change import compare
from billing_toolkit.client.evidence import bill_change_evidence
from billing_toolkit.client.models.billing import Invoice, LineItemKind
from tests.client import payloads
from tests.client.payloads import line


def invoice(number: str, *lines: dict[str, str], currency: str = "USD") -> Invoice:
    return Invoice.model_validate(payloads.invoice(number, lines=list(lines), currency=currency))


def test_lines_of_one_kind_are_summed_and_matched_by_kind_not_description() -> None:
    previous = invoice(
        "INV-2026-000001",
        line("plan_charge", "Fibra 100 (05/10/2026 - 04/11/2026)", "28.00"),
        line("discount", "Promo A", "-2.00"),
        line("discount", "Promo B", "-1.00"),
    )
    latest = invoice(
        "INV-2026-000002",
        line("plan_charge", "Fibra 100 (05/11/2026 - 04/12/2026)", "28.00"),
        line("discount", "Promo A", "-2.00"),
    )
    change = compare(latest, previous)
    assert [t.kind for t in change.unchanged] == [LineItemKind.PLAN_CHARGE]
    assert [(c.kind, c.previous, c.latest, c.difference) for c in change.changed] == [
        (LineItemKind.DISCOUNT, Decimal("-3.00"), Decimal("-2.00"), Decimal("1.00"))
    ]
    assert change.total_difference == Decimal("1.00")
    assert "discount went from USD -3.00 to USD -2.00, increased by USD 1.00 (computed)" in (
        bill_change_evidence(change)
    )


def test_a_decrease_is_stated_as_a_decrease_with_a_positive_figure() -> None:
    previous = invoice("INV-2026-000001", line("plan_charge", "Fibra 300", "40.00"))
    latest = invoice("INV-2026-000002", line("plan_charge", "Fibra 100", "28.00"))
    text = bill_change_evidence(compare(latest, previous))
    assert "the total decreased by USD 12.00 (computed)" in text
    assert "-12.00" not in text


def test_no_difference_across_currencies() -> None:
    previous = invoice(
        "INV-2026-000001", line("plan_charge", "Hogar 30", "1450.00"), currency="VES"
    )
    latest = invoice("INV-2026-000002", line("plan_charge", "Fibra 50", "20.00"))
    change = compare(latest, previous)
    assert change.total_difference is None
    assert bill_change_evidence(change).endswith("no difference is computed.")
