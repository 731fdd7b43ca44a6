"""The generated world: deterministic, realistic, and consistent with the billing rules."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from collections import Counter
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest

from billing_toolkit.contract.formats import IdentifierFormat, contract_formats
from billing_toolkit.simulator.state import codec, engine
from billing_toolkit.simulator.state.dataset import DEFAULT_NOW, generate
from billing_toolkit.simulator.state.identifiers import rif_check_digit
from billing_toolkit.simulator.state.info import dataset_info
from billing_toolkit.simulator.state.invariants import state_problems

DIGEST = (
    "import hashlib, sys; from billing_toolkit.simulator.state.dataset import generate; from billing_toolkit.simulator.state.codec import dumps;"
    "print(hashlib.sha256(dumps(generate(int(sys.argv[1]), 40)).encode()).hexdigest())"
)


def _digest_in_new_process(seed: int) -> str:
    done = subprocess.run(
        [sys.executable, "-c", DIGEST, str(seed)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout.strip()


def test_same_seed_gives_byte_identical_data_across_processes() -> None:
    here = hashlib.sha256(codec.dumps(generate(11, 40)).encode()).hexdigest()
    assert _digest_in_new_process(11) == here


def test_another_seed_gives_other_data() -> None:
    assert codec.dumps(generate(11, 16)) != codec.dumps(generate(12, 16))


def test_serialised_state_round_trips_exactly() -> None:
    state = generate(5, 16)
    text = codec.dumps(state)
    assert codec.dumps(codec.loads(type(state), text)) == text


def test_the_history_walk_visits_every_account_a_day_can_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The walk's watchlist skips accounts; visiting every account, as the clock does, must
    give the same bytes (a watchlist that lost an unpaid account misses its late fee)."""
    watched = codec.dumps(generate(3, 12))
    visit_all = engine.process_day
    monkeypatch.setattr(
        engine, "process_day", lambda state, day, watchlist=None: visit_all(state, day)
    )
    assert codec.dumps(generate(3, 12)) == watched


@pytest.fixture(scope="module")
def world():  # type: ignore[no-untyped-def]
    return generate(42, 120)


def test_invariants_hold_on_the_generated_history(world) -> None:  # type: ignore[no-untyped-def]
    assert state_problems(world) == []


def test_identifiers_follow_the_shared_formats(world) -> None:  # type: ignore[no-untyped-def]
    """The contract's patterns (read from `components/schemas`), plus what the dataset adds
    on top of them: tenant prefixes, Venezuelan mobile operators, the issue year."""
    formats = contract_formats()
    account_number, phone, national_id, invoice_number, payment_id = (
        formats.identifier(kind)
        for kind in (
            IdentifierFormat.ACCOUNT_NUMBER,
            IdentifierFormat.PHONE,
            IdentifierFormat.NATIONAL_ID,
            IdentifierFormat.INVOICE_NUMBER,
            IdentifierFormat.PAYMENT_ID,
        )
    )
    prefixes = {"fibranet": "10", "llanolink": "20"}
    for tenant_id, accounts in world.accounts.items():
        for number, account in accounts.items():
            customer = account.customer
            assert account_number.fullmatch(number) and number.startswith(prefixes[tenant_id])
            assert phone.fullmatch(customer.phone)
            assert re.fullmatch(r"\+58(412|414|416|424|426)[0-9]{7}", customer.phone)
            assert national_id.fullmatch(customer.national_id)
            if customer.customer_type == "business":
                kind, digits, check = customer.national_id.split("-")
                assert int(check) == rif_check_digit(kind, digits)
            for invoice in account.invoices:
                sequence = int(invoice.invoice_number[-6:])
                assert invoice_number.fullmatch(invoice.invoice_number)
                assert invoice.invoice_number.startswith("INV-2026-")
                assert (sequence < 500000) == (tenant_id == "fibranet")
            for payment in account.payments:
                assert payment_id.fullmatch(payment.payment_id)


def test_history_has_the_cases_an_assistant_must_handle(world) -> None:  # type: ignore[no-untyped-def]
    accounts = [a for tenant in world.accounts.values() for a in tenant.values()]
    kinds = Counter(line.kind for a in accounts for i in a.invoices for line in i.line_items)
    assert {
        "plan_charge",
        "proration",
        "late_fee",
        "tax",
        "installation",
        "equipment",
        "discount",
        "reconnection",
    } <= set(kinds)
    statuses = Counter(a.customer.status for a in accounts)
    assert statuses["suspended"] and statuses["cancelled"] and statuses["active"]
    assert any(a.customer.credit_balance > 0 for a in accounts)
    assert any(i.status == "overdue" for a in accounts for i in a.invoices)
    assert {a.customer.currency for a in accounts} == {"USD", "VES"}
    oldest = min(i.issue_date for a in accounts for i in a.invoices)
    assert oldest <= (DEFAULT_NOW - timedelta(days=180)).date()
    assert any(not a.customer.name.isascii() for a in accounts)  # Spanish names keep their accents


def test_near_duplicate_invoice_numbers_exist_in_the_same_tenant(world) -> None:  # type: ignore[no-untyped-def]
    for tenant_id, pairs in world.near_duplicates.items():
        numbers = {i.invoice_number for a in world.accounts[tenant_id].values() for i in a.invoices}
        assert {pair.kind for pair in pairs} == {"transposition", "one_digit"}
        for pair in pairs:
            assert pair.first in numbers and pair.second in numbers
            different = [
                i for i, (x, y) in enumerate(zip(pair.first, pair.second, strict=True)) if x != y
            ]
            if pair.kind == "one_digit":
                assert len(different) == 1
            else:
                assert len(different) == 2 and different[1] == different[0] + 1
                assert pair.first[different[0]] == pair.second[different[1]]


def test_dataset_info_names_a_customer_for_every_role() -> None:
    info = dataset_info(generate(3, 16))
    first, second = info["tenants"]
    for tenant in (first, second):
        assert all(tenant["samples"][role] is not None for role in tenant["samples"]), tenant[
            "samples"
        ]
        assert len(tenant["near_duplicate_invoices"]) == 2
        assert tenant["api_key"].startswith(f"sk_sim_{tenant['tenant_id']}_")
    assert (
        first["other_tenant_invoice"].startswith("INV-")
        and int(first["other_tenant_invoice"][-6:]) >= 500000
    )
    assert first["samples"]["business"]["national_id"][0] in "JG"
    assert first["samples"]["ves"]["currency"] == "VES"


def test_too_small_a_dataset_is_refused_with_a_clear_message() -> None:
    with pytest.raises(ValueError, match=r"in \[12, 5000\]"):
        generate(1, 3)


def _customer_record(account: Any) -> tuple[Any, ...]:
    """What a customer's data is, minus the numbers issued in sequence across the tenant
    (invoice numbers, payment ids), which are chronological for the whole population."""
    return (
        codec.dumps(account.customer),
        [
            (i.issue_date, i.status, i.amount_due, i.amount_paid, len(i.line_items))
            for i in account.invoices
        ],
        [
            (p.received_at, p.amount, p.method, p.reference, p.unapplied_amount)
            for p in account.payments
        ],
    )


def test_a_customer_depends_on_the_seed_and_its_index_not_on_the_population() -> None:
    small, large = generate(42, 20), generate(42, 300)
    example = "1000004821"
    owed = {
        name: sum(
            (i.amount_due for i in s.accounts["fibranet"][example].open_invoices()), Decimal(0)
        )
        for name, s in (("small", small), ("large", large))
    }
    assert owed["small"] == owed["large"] > 0
    for tenant_id, accounts in small.accounts.items():
        for number, account in accounts.items():
            assert _customer_record(account) == _customer_record(large.accounts[tenant_id][number])
