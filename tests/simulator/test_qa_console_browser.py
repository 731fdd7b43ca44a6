"""The QA console in a real browser: Debian's chromium driven by Playwright.

A QA user signs in with the keyboard, injects an outage from the form, a client's next
request fails, and the failure appears in the journal list — with the fault it got — while
the page is open, without a reload. Screenshots of each screen go to the test's tmp_path.
"""

from __future__ import annotations

from pathlib import Path

import httpx

from billing_toolkit.simulator import control_of, create_app
from tests.simulator.chromium import page, served
from tests.simulator.conftest import small_config

TOKEN = "test-admin-token"


def test_an_outage_from_the_form_shows_the_next_request_failing(tmp_path: Path) -> None:
    app = create_app(small_config())
    info = control_of(app).info()
    tenant = info["tenants"][0]
    account = tenant["samples"]["open_invoice"]["account_number"]
    with served(app) as url, page() as (console, refused):
        console.goto(f"{url}/_sim/console")
        console.screenshot(path=str(tmp_path / "1-sign-in.png"))
        # keyboard only: the token field, then Enter
        console.get_by_label("Admin token").focus()
        console.keyboard.type(TOKEN)
        console.keyboard.press("Enter")
        console.get_by_role("heading", name="Active fault rules").wait_for()

        console.get_by_label("Fault kind").select_option("http_503")
        console.get_by_label("Operation", exact=True).select_option("getBalance")
        console.get_by_label("Times (empty: unlimited)").fill("1")
        console.get_by_role("button", name="Add rule").click()
        console.get_by_role("status").filter(has_text="Rule added.").wait_for()
        rules = console.locator("#rules")
        assert "http_503" in rules.inner_text() and "getBalance" in rules.inner_text()
        console.screenshot(path=str(tmp_path / "2-rule-added.png"), full_page=True)

        # a client's request, from outside the page: the page must show it by itself
        auth = {"Authorization": f"Bearer {tenant['api_key']}"}
        failed = httpx.get(f"{url}/v1/customers/{account}/balance", headers=auth, timeout=10)
        assert failed.status_code == 503
        row = console.locator("#requests tbody tr").filter(has_text="503")
        row.wait_for()
        assert "http_503" in row.inner_text() and "getBalance" in row.inner_text()
        assert account not in console.content()  # masked in the journal list
        assert "0 / 1" in rules.inner_text()  # the rule's remaining count went down, live
        console.screenshot(path=str(tmp_path / "3-request-failed.png"), full_page=True)

        # a bad rule: the API's own message, under the form
        console.get_by_label("Times (empty: unlimited)").fill("abc")
        console.get_by_role("button", name="Add rule").click()
        alert = console.locator("#rule-errors")
        alert.wait_for()
        assert "body.times" in alert.inner_text()
        console.screenshot(path=str(tmp_path / "4-rule-refused.png"), full_page=True)
        assert refused == [], f"the console reached outside the simulator: {refused}"


def test_the_console_reads_on_a_phone_in_spanish(tmp_path: Path) -> None:
    app = create_app(small_config())
    with served(app) as url, page({"width": 390, "height": 844}, locale="es-VE") as (phone, _):
        phone.goto(f"{url}/_sim/console/")
        phone.get_by_label("Token de administración").fill(TOKEN)
        phone.get_by_role("button", name="Iniciar sesión").click()
        phone.get_by_role("heading", name="Reglas de fallo activas").wait_for()
        phone.screenshot(path=str(tmp_path / "phone-es.png"), full_page=True)
        wide = phone.evaluate(
            "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 390"
            " && !e.closest('.scroll')).map(e => e.tagName + '#' + e.id + '.' + e.className)"
        )
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page scrolls sideways on a phone ({width}px): {wide}"
        phone.get_by_role("button", name="Cerrar sesión").click()
        phone.get_by_label("Token de administración").wait_for()
