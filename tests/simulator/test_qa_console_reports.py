"""The QA console's payment reports (#27): one tenant's reports with their status, the
outcomes scenarios force, escaped and behind the sign-in like every console page."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.simulator.conftest import Sim
from tests.simulator.test_payment_reports import report, status_of, usd_account
from tests.simulator.test_qa_console import CONSOLE, Console
from tests.simulator.test_report_outcomes import SHIPPED

REPORTS = f"{CONSOLE}/reports"


@pytest.fixture
def console(sim: Sim) -> Console:
    return Console(sim).sign_in()


def rows(html: str) -> dict[str, list[str]]:
    """Each table row of the listing as its cells' text, by report id."""
    listing = html.split('id="reports"', 1)[1].split("</table>", 1)[0]
    found: dict[str, list[str]] = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", listing, re.DOTALL)[1:]:
        cells = re.findall(r"<td>(.*?)</td>", row, re.DOTALL)
        text = [unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in cells]
        found[text[0]] = text
    return found


def test_a_visitor_without_a_session_sees_no_report(sim: Sim) -> None:
    made = report(sim, usd_account(sim), "console-key-0001").json()
    page = Console(sim).client.get(REPORTS)
    assert 'name="token"' in page.text and made["report_id"] not in page.text


def test_reports_are_listed_with_their_status_reason_and_payment(console: Console) -> None:
    sim = console.sim
    assert (
        console.post("/scenarios", scenario=SHIPPED.read_text(encoding="utf-8")).status_code == 303
    )
    account = usd_account(sim)
    verified = report(sim, account, "console-key-0002").json()
    rejected = report(sim, account, "console-key-0003", reference="0045128").json()
    pending = rows(console.client.get(REPORTS).text)[verified["report_id"]]
    assert pending == [verified["report_id"], account, "0045127 (0134)", "pago_movil",
                       "1310.40 VES", "pending", "—", "—", verified["created_at"]]  # fmt: skip
    sim.control.clock.advance(minutes=30)
    page = console.client.get(REPORTS).text
    shown = rows(page)
    payment_id = status_of(sim, verified["report_id"])["payment_id"]
    assert shown[verified["report_id"]][5:8] == ["verified", "—", payment_id]
    assert shown[verified["report_id"]][4].startswith("1310.40 VES → ")
    assert shown[rejected["report_id"]][5:8] == ["rejected", "amount_mismatch", "—"]
    assert "0045127</code> → verified (report-outcomes)" in page
    assert "V-12345678" not in page and "+584121234567" not in page  # the payer's identifiers


def test_the_listing_is_one_tenants_and_filters_by_status_and_reference(console: Console) -> None:
    sim = console.sim
    mine = report(sim, usd_account(sim), "console-key-0004", reference="77001122").json()
    theirs = sim.client.post(
        f"/v1/customers/{sim.sample('open_invoice', sim.llanolink)['account_number']}/payment-reports",
        headers={**sim.auth(sim.llanolink), "Idempotency-Key": "console-key-0005"},
        json={"method": "zelle", "amount": "10.00", "currency": "USD", "reference": "Z77001122",
              "payment_date": "2026-11-10"},
    ).json()  # fmt: skip
    fibranet = console.client.get(REPORTS).text  # report ids count per tenant: by reference
    assert rows(fibranet)[mine["report_id"]][2] == "77001122 (0134)"
    assert "Z77001122" not in fibranet
    llanolink = console.client.get(REPORTS, params={"tenant": "llanolink"}).text
    assert rows(llanolink)[theirs["report_id"]][2] == "Z77001122"
    assert "77001122 (0134)" not in llanolink
    one = rows(console.client.get(REPORTS, params={"reference": "77001122"}).text)
    assert list(one) == [mine["report_id"]]
    rejected = rows(console.client.get(REPORTS, params={"status": "rejected"}).text)
    assert rejected and {cells[5] for cells in rejected.values()} == {"rejected"}
    counted = console.client.get(REPORTS, params={"status": "pending_verification"}).text
    assert "The newest 17 of 17." in counted  # 16 seeded pending and the one made here


def test_an_unknown_tenant_or_status_is_a_400_page(console: Console) -> None:
    for params in ({"tenant": "nosuch"}, {"status": "approved"}):
        refused = console.client.get(REPORTS, params=params)
        assert refused.status_code == 400 and "There is no such tenant or status." in refused.text


def test_what_a_subscriber_typed_is_escaped(console: Console) -> None:
    page = console.client.get(REPORTS, params={"reference": '"><script>alert(1)</script>'})
    assert page.status_code == 200 and "<script>alert" not in page.text
    assert "&#34;&gt;&lt;script&gt;" in page.text and "No report matches." in page.text


def test_a_scenario_of_outcomes_only_is_listed_and_unloaded_from_the_console(
    console: Console,
) -> None:
    assert (
        console.post("/scenarios", scenario=SHIPPED.read_text(encoding="utf-8")).status_code == 303
    )
    page = console.page().text
    assert "<strong>report-outcomes</strong> — Rules: 0;" in page
    assert re.search(r"Forced outcomes</a>: 2", page)
    assert console.post("/scenarios/unload", name="report-outcomes").status_code == 303
    assert console.sim.control.faults.report_outcomes() == []
    assert "No scenario forces an outcome" in console.client.get(REPORTS).text
