"""The billing policy as pure functions."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from billing_toolkit.contract.formats import contract_formats
from billing_toolkit.simulator.representations import iso_date, timestamp
from billing_toolkit.simulator.state import billing
from billing_toolkit.simulator.state.identifiers import one_digit_apart, rif, transposed
from billing_toolkit.simulator.state.models import Invoice, LineItem
from billing_toolkit.simulator.state.money import CENT, MAX_AMOUNT, cents, to_wire

AMOUNT_PATTERN = contract_formats().amount


@pytest.mark.parametrize(
    ("day", "after", "expected"),
    [
        (5, date(2026, 11, 4), date(2026, 11, 5)),
        (5, date(2026, 11, 5), date(2026, 12, 5)),
        (28, date(2026, 12, 30), date(2027, 1, 28)),
    ],
)
def test_next_billing_date(day: int, after: date, expected: date) -> None:
    assert billing.next_billing_date(day, after) == expected


def test_period_runs_to_the_day_before_the_next_billing_day() -> None:
    assert billing.billing_period(date(2026, 11, 5), 5) == (date(2026, 11, 5), date(2026, 12, 4))


def test_iva_is_16_percent_of_the_taxable_lines_and_discounts_reduce_it() -> None:
    lines = billing.with_tax(
        [
            LineItem("plan_charge", "Fibra 100", Decimal("28.00")),
            LineItem("discount", "10%", Decimal("-2.80")),
        ]
    )
    assert lines[-1] == LineItem("tax", "IVA 16%", Decimal("4.03"))  # 25.20 × 0.16 = 4.032 → 4.03


def test_late_fee_is_5_percent_of_what_is_still_due_rounded_half_up() -> None:
    invoice = Invoice("INV-2026-000001", "1000000001", "fibranet", "open", "USD", date(2026, 1, 1), date(2026, 1, 31),
                      date(2026, 1, 1), date(2026, 1, 16), [LineItem("plan_charge", "x", Decimal("20.90"))],
                      amount_paid=Decimal("10.00"))  # fmt: skip
    assert billing.late_fee_line(invoice).amount == Decimal("0.55")  # 10.90 × 5% = 0.545 → 0.55


def test_upgrade_prorates_the_days_left_and_downgrade_does_not() -> None:
    period = (date(2026, 11, 5), date(2026, 12, 4))  # 30 days
    assert billing.proration_amount(
        Decimal("28.00"), Decimal("40.00"), date(2026, 11, 20), period
    ) == Decimal("6.00")
    assert (
        billing.proration_amount(Decimal("40.00"), Decimal("28.00"), date(2026, 11, 20), period)
        is None
    )


def test_payment_goes_to_the_oldest_invoice_first_and_the_rest_is_credit() -> None:
    def invoice(number: str, amount: str) -> Invoice:
        return Invoice(number, "1", "t", "open", "USD", date(2026, 1, 1), date(2026, 1, 31), date(2026, 1, 1),
                       date(2026, 1, 16), [LineItem("plan_charge", "x", Decimal(amount))])  # fmt: skip

    older, newer = invoice("INV-2026-000001", "20.00"), invoice("INV-2026-000002", "30.00")
    allocations, rest = billing.allocate([older, newer], Decimal("60.00"))
    assert [(i.invoice_number, a) for i, a in allocations] == [
        ("INV-2026-000001", Decimal("20.00")),
        ("INV-2026-000002", Decimal("30.00")),
    ]
    assert rest == Decimal("10.00")


def test_money_on_the_wire_has_two_decimals_and_no_negative_zero() -> None:
    assert to_wire(Decimal(5)) == "5.00"
    assert to_wire(Decimal("-0.001")) == "0.00"
    assert to_wire(Decimal("2.675")) == "2.68"
    assert to_wire(Decimal("1E+3")) == "1000.00"  # never scientific notation
    assert to_wire(MAX_AMOUNT) == "999999999999.99"


def test_cents_round_half_up() -> None:
    assert cents("2.675") == Decimal("2.68")
    assert cents("-2.675") == Decimal("-2.68")  # half away from zero, as by hand
    assert cents("2.674999") == Decimal("2.67")


@pytest.mark.parametrize("first", ["utc", "caracas"])
def test_a_timestamp_is_the_instant_in_utc_whatever_offset_it_came_in(first: str) -> None:
    """Either order, on a fresh memo: the memo must not hand one instant's text to the
    same instant written in another zone, nor the wall time of another zone with a Z."""
    utc = datetime(2026, 11, 10, 13, 0, 5, 250000, tzinfo=UTC)
    moments = {"utc": utc, "caracas": utc.astimezone(timezone(timedelta(hours=-4)))}
    timestamp.cache_clear()
    order = [first, *(name for name in moments if name != first)]
    assert [timestamp(moments[name]) for name in order] == ["2026-11-10T13:00:05Z"] * 2
    assert timestamp(datetime(2026, 11, 10, 13, 0, 5)) == "2026-11-10T13:00:05Z"  # naive: UTC


def test_a_day_is_written_as_iso_8601() -> None:
    assert iso_date(date(2026, 1, 5)) == "2026-01-05"
    assert iso_date(date(999, 12, 31)) == "0999-12-31"


def test_max_amount_is_the_largest_the_contract_amount_pattern_carries() -> None:
    assert AMOUNT_PATTERN.fullmatch(to_wire(MAX_AMOUNT))
    assert AMOUNT_PATTERN.fullmatch(to_wire(-MAX_AMOUNT))
    assert not AMOUNT_PATTERN.fullmatch(to_wire(MAX_AMOUNT + CENT))


@given(st.decimals(min_value=-MAX_AMOUNT, max_value=MAX_AMOUNT, allow_nan=False, places=4))
def test_every_amount_on_the_wire_keeps_the_contract_pattern_and_its_value(
    amount: Decimal,
) -> None:
    wire = to_wire(amount)
    assert AMOUNT_PATTERN.match(wire), wire
    assert Decimal(wire) == cents(amount)


def test_rif_check_digit_and_near_duplicate_helpers() -> None:
    assert rif("J", 12345678) == "J-12345678-4"
    assert transposed(4218) == 4281 and transposed(4281) is None
    assert one_digit_apart(4218) == 4318 and one_digit_apart(4918) == 5918
