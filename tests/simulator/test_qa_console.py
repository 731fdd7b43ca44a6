"""The QA console over HTTP: sign-in, CSRF, the same validation as the admin API, every action.

The browser test (`test_qa_console_browser.py`) drives the same pages in chromium; here each
guard gets the hostile input it exists for, and each action is checked on the live state.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from typing import TYPE_CHECKING, Any

import pytest
from starlette.testclient import TestClient

from billing_toolkit.simulator import create_app
from tests.simulator.conftest import ADMIN, Sim, small_config

if TYPE_CHECKING:
    import httpx2  # what starlette's TestClient answers with (not the SDK's httpx)

CONSOLE = "/_sim/console"
TOKEN = "test-admin-token"
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


class Console:
    """A browser-like visitor: a cookie jar and the CSRF token of the last page seen."""

    def __init__(self, sim: Sim, language: str = "en") -> None:
        self.sim = sim
        self.client = TestClient(sim.app, headers={"Accept-Language": language})
        self.csrf = ""
        self.page()

    def page(self) -> httpx2.Response:
        answer = self.client.get(f"{CONSOLE}/")
        self.csrf = _CSRF.search(answer.text).group(1)  # type: ignore[union-attr]
        return answer

    def post(self, action: str, **fields: str) -> httpx2.Response:
        return self.client.post(
            f"{CONSOLE}{action}", data={"csrf": self.csrf, **fields}, follow_redirects=False
        )

    def sign_in(self) -> Console:
        assert self.post("/sign-in", token=TOKEN).status_code == 303
        self.page()
        return self


def _errors(html: str) -> list[str]:
    return [
        unescape(re.sub(r"<[^>]+>", "", item)) for item in re.findall(r"<li><code>.*?</li>", html)
    ]


@pytest.fixture
def console(sim: Sim) -> Console:
    return Console(sim).sign_in()


def test_a_visitor_without_a_session_gets_only_the_sign_in_page(sim: Sim) -> None:
    visitor = Console(sim)
    page = visitor.page()
    assert page.status_code == 200 and 'name="token"' in page.text and "fault-" not in page.text
    added = visitor.post("/faults", kind="http_503", operation="getBalance")
    assert added.status_code == 303 and added.headers["location"] == f"{CONSOLE}/"
    assert sim.control.faults.list() == []


def test_a_wrong_token_is_refused_and_signs_nobody_in(sim: Sim) -> None:
    visitor = Console(sim)
    for token in ("", "wrong", TOKEN + "x", TOKEN.upper()):
        refused = visitor.post("/sign-in", token=token)
        assert (
            refused.status_code == 401
            and "admin token." in refused.text
            and "That is not this simulator" in refused.text
        )
    assert 'name="token"' in visitor.page().text


def test_the_session_cookie_is_signed_http_only_and_same_site(sim: Sim) -> None:
    visitor = Console(sim)
    signed = visitor.post("/sign-in", token=TOKEN)
    cookie = signed.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and f"path={CONSOLE}" in cookie
    assert TOKEN not in signed.headers["set-cookie"]
    for page in (visitor.page(), signed, visitor.client.get(f"{CONSOLE}/static/console.css")):
        assert page.headers["cache-control"] == "no-store"
        assert "default-src 'none'" in page.headers["content-security-policy"]


def test_a_forged_or_foreign_cookie_is_no_session(sim: Sim, console: Console) -> None:
    value = console.client.cookies["sim_console"]
    console.client.cookies.clear()
    console.client.cookies.set("sim_console", value[:-4] + "AAAA", path=CONSOLE)
    assert 'name="token"' in console.page().text
    other = Sim(small_config(admin_token="another-token"))  # another process, another token
    foreign = Console(other)
    foreign.client.cookies.clear()
    foreign.client.cookies.set("sim_console", value, path=CONSOLE)
    assert 'name="token"' in foreign.page().text


@pytest.mark.parametrize("csrf", ["", "0" * 64, "not-a-token"])
def test_a_form_without_its_csrf_token_changes_nothing(console: Console, csrf: str) -> None:
    console.csrf = csrf
    refused = console.post("/faults", kind="http_503", operation="getBalance")
    assert refused.status_code == 403 and "did not come from this page" in refused.text
    assert console.sim.control.faults.list() == []
    assert console.post("/reset").status_code == 403


def test_an_outage_added_from_the_form_makes_the_next_request_fail(console: Console) -> None:
    added = console.post("/faults", kind="http_503", operation="getBalance", times="1")
    assert added.status_code == 303 and "notice=rule_added" in added.headers["location"]
    [rule] = console.sim.control.faults.list()
    assert (rule["kind"], rule["operation"], rule["times"]) == ("http_503", "getBalance", 1)
    account = console.sim.sample("open_invoice")["account_number"]
    assert console.sim.get(f"/v1/customers/{account}/balance").status_code == 503
    page = console.page().text
    assert "Rule added." not in page  # the notice is for the redirect only
    assert re.search(r"<td>503</td>\s*<td>http_503</td>", page)
    assert account not in page  # the journal shows masked paths


BAD_RULES: list[dict[str, str]] = [
    {"kind": "no_such_kind", "operation": "getBalance"},
    {"kind": "http_503", "operation": "noSuchOperation"},
    {"kind": "http_503", "operation": "getBalance", "times": "abc"},
    {"kind": "http_503", "operation": "getBalance", "times": "0"},
    {"kind": "http_503", "operation": "getBalance", "probability": "2"},
    {"kind": "http_503", "operation": "getBalance", "after_s": "-5"},
    {"kind": "http_503", "operation": "getBalance", "extra": "retry_after_s: soon"},
    {"kind": "http_503", "operation": "getBalance", "extra": "bogus_field: 1"},
]


@pytest.mark.parametrize("fields", BAD_RULES)
def test_a_bad_rule_shows_the_apis_own_messages(console: Console, fields: dict[str, str]) -> None:
    refused = console.post("/faults", **fields)
    assert refused.status_code == 400 and "The rule was not added:" in refused.text
    body: dict[str, Any] = {k: v for k, v in fields.items() if k != "extra"}
    for name in ("times", "probability", "after_s"):
        if name in body:
            body[name] = int(body[name]) if body[name].lstrip("-").isdigit() else body[name]
    if "extra" in fields:
        key, _, value = fields["extra"].partition(": ")
        body[key] = int(value) if value.isdigit() else value
    api = console.sim.client.post("/_sim/faults", headers=ADMIN, json=body)
    assert api.status_code == 400
    assert _errors(refused.text) == [f"{e['field']}: {e['message']}" for e in api.json()["errors"]]
    assert console.sim.control.faults.list() == []
    assert f'value="{fields.get("times", "")}"' in refused.text or "times" not in fields


@pytest.mark.parametrize("extra", ["[unclosed", "- a list\n- of things"])
def test_unreadable_other_fields_are_refused_by_name(console: Console, extra: str) -> None:
    refused = console.post("/faults", kind="http_503", operation="getBalance", extra=extra)
    assert refused.status_code == 400 and _errors(refused.text)[0].startswith(
        "body: the other fields"
    )
    assert console.sim.control.faults.list() == []


SCENARIO = """name: outage-drill
rules:
  - kind: http_503
    operation: getBalance
    times: 2
"""


def test_a_scenario_loads_and_unloads_from_the_console(console: Console) -> None:
    assert console.post("/scenarios", scenario=SCENARIO).status_code == 303
    rules = console.sim.control.faults.list()
    assert [(r["scenario"], r["times"]) for r in rules] == [("outage-drill", 2)]
    page = console.page().text
    assert "outage-drill" in page and "2 / 2" in page
    again = console.post("/scenarios", scenario=SCENARIO)
    assert again.status_code == 400 and "already loaded" in again.text
    assert console.post("/scenarios", scenario=SCENARIO, replace="true").status_code == 303
    assert console.post("/scenarios/unload", name="outage-drill").status_code == 303
    assert console.sim.control.faults.list() == []


@pytest.mark.parametrize(
    "text",
    [
        "",
        "rules: [",
        "rules:\n  - kind: nope\n",
        "name: x\nrules:\n  - kind: http_503\n    times: -1\n",
    ],
)
def test_a_broken_scenario_shows_the_apis_messages_and_adds_nothing(
    console: Console, text: str
) -> None:
    refused = console.post("/scenarios", scenario=text)
    api = console.sim.client.post(
        "/_sim/scenarios", headers={**ADMIN, "Content-Type": "application/yaml"}, content=text
    )
    assert refused.status_code == api.status_code == 400
    assert _errors(refused.text) == [f"{e['field']}: {e['message']}" for e in api.json()["errors"]]
    assert console.sim.control.faults.list() == []


def test_the_clock_moves_forward_and_refuses_the_rest(console: Console) -> None:
    before = console.sim.control.clock.now()
    assert console.post("/clock", days="31").status_code == 303
    assert (console.sim.control.clock.now() - before).days == 31
    for fields in ({}, {"days": "-1"}, {"hours": "abc"}, {"days": "99999"}, {"minutes": "nan"}):
        refused = console.post("/clock", **fields)
        assert refused.status_code == 400 and "The clock did not move:" in refused.text
    assert (console.sim.control.clock.now() - before).days == 31


def test_reset_starts_the_world_over(console: Console) -> None:
    console.post("/faults", kind="http_503", operation="getBalance")
    console.sim.get("/health/live")
    console.sim.control.clock.advance(days=3)
    assert console.post("/reset").status_code == 303
    control = console.sim.control
    assert control.faults.list() == [] and control.requests.count() == 0
    assert control.clock.now() == console.sim.config.start_time


def test_rules_and_requests_can_be_cleared(console: Console) -> None:
    console.post("/faults", kind="http_503", operation="getBalance")
    console.post("/faults", kind="http_500", operation="getBalance")
    rule = console.sim.control.faults.list()[0]["id"]
    assert console.post("/faults/remove", id=rule).status_code == 303
    assert len(console.sim.control.faults.list()) == 1
    console.post("/faults/clear")
    assert console.sim.control.faults.list() == []
    console.sim.get("/health/live")
    console.post("/requests/clear")
    assert console.sim.control.requests.count() == 0


def test_spanish_by_default_english_on_request_and_a_switch(sim: Sim) -> None:
    assert "Iniciar sesión" in Console(sim, language="es-VE").page().text
    assert "Iniciar sesión" in Console(sim, language="de").page().text
    visitor = Console(sim, language="en-US")
    assert '<html lang="en">' in visitor.page().text
    assert visitor.post("/language", lang="es").status_code == 303
    assert '<html lang="es">' in visitor.page().text
    assert visitor.post("/language", lang="fr").status_code == 400


def test_sign_out_ends_the_session(console: Console) -> None:
    assert console.post("/sign-out").status_code == 303
    assert 'name="token"' in console.page().text


def test_a_form_is_bounded_and_must_be_a_form(console: Console) -> None:
    huge = console.client.post(
        f"{CONSOLE}/scenarios", data={"csrf": console.csrf, "scenario": "x" * 300_000}
    )
    assert huge.status_code == 413
    as_json = console.client.post(f"{CONSOLE}/faults", json={"csrf": console.csrf})
    assert as_json.status_code == 415
    assert console.sim.control.faults.list() == []


def test_the_journal_off_is_said_on_the_page() -> None:
    off = Sim(small_config(journal_size=0))
    assert "The request journal is off" in Console(off).sign_in().page().text


@pytest.fixture
def bare() -> Iterator[TestClient]:
    with TestClient(create_app(small_config())) as client:
        yield client


def test_an_unknown_console_path_is_a_plain_404(bare: TestClient) -> None:
    assert bare.get(f"{CONSOLE}/nope").status_code == 404
    assert bare.get(CONSOLE, follow_redirects=False).status_code in (307, 308)


def test_a_sequence_rule_shows_its_steps_and_where_it_is(console: Console) -> None:
    console.sim.control.faults.add_rule(
        {"operation": "getBalance", "steps": [{"kind": "http_503", "times": 1}, {"kind": "pass"}]}
    )
    assert "http_503 ×1 → pass" in console.page().text and "step 1 of 2" in console.page().text
    account = console.sim.sample("open_invoice")["account_number"]
    assert console.sim.get(f"/v1/customers/{account}/balance").status_code == 503
    assert "step 2 of 2" in console.page().text
