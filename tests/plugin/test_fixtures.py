"""Both fixtures, their options and the handle, as a user's suite sees them (via pytester)."""

from __future__ import annotations

import json

import pytest

RUN = ("-p", "no:cacheprovider", "-q")

HANDLE_SUITE = """
import asyncio
from decimal import Decimal

import httpx
import pytest

from billing_toolkit.client.errors import CustomerNotFoundError


def test_the_bound_client_reads_the_seeded_dataset(billing_sim):
    assert billing_sim.info["seed"] == 42 and billing_sim.info["customers_per_tenant"] == 20
    account = billing_sim.sample("open_invoice")["account_number"]
    balance = billing_sim.client.get_balance(account)
    assert isinstance(balance.amount_due, Decimal)
    wire = billing_sim.http.get(f"/v1/customers/{account}/balance").json()
    assert wire["amount_due"] == str(balance.amount_due)


def test_the_async_client_is_bound_too(billing_sim):
    account = billing_sim.sample("credit")["account_number"]

    async def read():
        return await billing_sim.async_client.get_balance(account)

    assert asyncio.run(read()).credit_balance > 0


def test_tenants_never_see_each_other(billing_sim):
    llanolink = billing_sim.client_for("llanolink")
    with pytest.raises(CustomerNotFoundError):
        llanolink.get_balance(billing_sim.sample("open_invoice")["account_number"])


def test_the_clock_bills_and_makes_invoices_overdue(billing_sim):
    account = billing_sim.sample("open_invoice")["account_number"]
    assert billing_sim.client.get_balance(account).overdue_amount == 0
    report = billing_sim.clock.advance(days=31)
    assert report.invoices_issued > 0
    assert billing_sim.client.get_balance(account).overdue_amount > 0


def test_snapshot_and_restore(billing_sim):
    account = billing_sim.sample("open_invoice")["account_number"]
    before = billing_sim.client.get_balance(account)
    snap = billing_sim.snapshot()
    billing_sim.clock.advance(days=31)
    billing_sim.restore(snap)
    assert billing_sim.client.get_balance(account) == before


def test_reset_forgets_time_and_faults(billing_sim):
    start = billing_sim.clock.now()
    billing_sim.clock.advance(days=3)
    billing_sim.faults.add(operation="getBalance", kind="http_500")
    billing_sim.reset()
    assert billing_sim.clock.now() == start and billing_sim.faults.rules() == []


def test_each_test_starts_fresh_after_one_that_moved_the_clock(billing_sim):
    assert billing_sim.clock.now().isoformat().startswith("2026-11-10")


def test_the_server_fixture_serves_loopback_with_the_same_handle(billing_sim_server):
    assert billing_sim_server.url.startswith("http://127.0.0.1:")
    account = billing_sim_server.sample("open_invoice")["account_number"]
    headers = {"Authorization": f"Bearer {billing_sim_server.api_key}"}
    raw = httpx.get(f"{billing_sim_server.url}/v1/customers/{account}/balance", headers=headers)
    assert raw.json()["amount_due"] == str(billing_sim_server.client.get_balance(account).amount_due)
    billing_sim_server.clock.advance(days=31)
    assert billing_sim_server.client.get_balance(account).overdue_amount > 0
"""


def test_each_fixture_and_handle_call_works_in_a_users_suite(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_handle=HANDLE_SUITE)
    pytester.runpytest_inprocess(*RUN).assert_outcomes(passed=8)


OPTIONS_SUITE = """
import json
import pathlib

import pytest

SEEN = pathlib.Path("seen.jsonl")


def record(sim, label):
    entry = {"label": label, "seed": sim.info["seed"], "tenant": sim.options.tenant,
             "customers": sim.info["customers_per_tenant"], "key": sim.api_key,
             "app": id(sim.app)}
    with SEEN.open("a") as out:
        out.write(json.dumps(entry) + "\\n")


@pytest.mark.parametrize("billing_sim", [{"seed": 7}, {"seed": 7}, {"seed": 8}], indirect=True)
def test_parametrised(billing_sim):
    record(billing_sim, "param")


@pytest.mark.billing_sim(seed=7, tenant="llanolink", customers=12)
def test_marker(billing_sim):
    record(billing_sim, "marker")
    assert billing_sim.sample("open_invoice")["account_number"].startswith("20")


@pytest.mark.billing_sim(seed=9, tenant="llanolink")
class TestClosestMarkerWins:
    @pytest.mark.billing_sim(tenant="fibranet")
    def test_method(self, billing_sim):
        record(billing_sim, "closest")


@pytest.mark.billing_sim(shared=True)
@pytest.mark.parametrize("n", [1, 2])
def test_shared(billing_sim, n):
    record(billing_sim, "shared")
    billing_sim.faults.add(operation="getBalance", kind="http_500")


@pytest.mark.billing_sim(shared=True)
def test_shared_after_faults(billing_sim):
    record(billing_sim, "shared")
    assert billing_sim.faults.rules() == []
"""


def test_options_from_markers_and_parameters(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_options=OPTIONS_SUITE)
    pytester.runpytest_inprocess(*RUN).assert_outcomes(passed=8)
    seen = [json.loads(line) for line in (pytester.path / "seen.jsonl").read_text().splitlines()]
    by_label: dict[str, list[dict[str, object]]] = {}
    for entry in seen:
        by_label.setdefault(str(entry["label"]), []).append(entry)
    first, again, other = by_label["param"]
    assert (first["seed"], again["seed"], other["seed"]) == (7, 7, 8)
    assert first["key"] == again["key"] != other["key"]  # same seed, same data
    assert first["app"] != again["app"]  # yet a fresh simulator per test
    (marker,) = by_label["marker"]
    assert (marker["seed"], marker["tenant"], marker["customers"]) == (7, "llanolink", 12)
    (closest,) = by_label["closest"]
    assert (closest["seed"], closest["tenant"]) == (9, "fibranet")
    assert len({entry["app"] for entry in by_label["shared"]}) == 1


def test_a_misspelt_option_fails_the_test_naming_the_valid_ones(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.billing_sim(sede=7)
        def test_typo(billing_sim):
            pass

        @pytest.mark.billing_sim(tenant="movistar")
        def test_unknown_tenant(billing_sim):
            pass
        """
    )
    result = pytester.runpytest_inprocess(*RUN)
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(
        [
            (
                "*billing_sim: unknown option 'sede'; valid options are customers, "
                "emulate_socket_faults, seed, shared, tenant*"
            ),
            "*billing_sim: tenant must be one of fibranet, llanolink, got 'movistar'*",
        ]
    )


def test_a_shared_simulator_is_read_only(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        pytestmark = pytest.mark.billing_sim(shared=True)

        def test_moves_the_clock(billing_sim):
            billing_sim.clock.advance(days=1)

        def test_next_one_gets_a_clean_simulator(billing_sim):
            assert billing_sim.clock.now().isoformat().startswith("2026-11-10")
        """
    )
    result = pytester.runpytest_inprocess(*RUN)
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*billing_sim(shared=True) is read-only*drop shared=True*"])
