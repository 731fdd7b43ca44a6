"""The QA console's pages: sign in and out, and one page with every control QA uses.

Rendered on the server; every form works without JavaScript (POST, then a redirect back
to the page when it worked, or the page again with the API's refusal and its 4xx status).
`static/console.js` only refreshes the regions marked `data-live` (rules, the journal)
while the page is open. Each action is the `SimulatorControl` call the admin API makes,
validated by the same functions, so the console can accept nothing the API would refuse.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import orjson
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from billing_toolkit.simulator.admin.handlers import load_scenario_text, rule_field_errors
from billing_toolkit.simulator.console import i18n
from billing_toolkit.simulator.console.forms import FormRefused, read_form, rule_from_form, scalar
from billing_toolkit.simulator.console.reports import (
    STATUSES,
    BadFilter,
    ReportFilter,
    ReportListing,
    list_reports,
)
from billing_toolkit.simulator.console.session import (
    ADMIN_ACCOUNT,
    COOKIE,
    MAX_AGE,
    Session,
    SessionKeys,
    anonymous,
)
from billing_toolkit.simulator.faults.kinds import KINDS
from billing_toolkit.simulator.faults.rules import TENANTS, FaultRuleError
from billing_toolkit.simulator.problems import invalid
from billing_toolkit.simulator.representations import timestamp
from billing_toolkit.simulator.runtime import Runtime
from billing_toolkit.simulator.validation import IncomingRequest, RequestRejected
from billing_toolkit.simulator.validation.messages import FieldError
from billing_toolkit.webconsole.live_sessions import SessionRegistry
from billing_toolkit.webconsole.throttle import SignInThrottle, client_address

PREFIX = "/_sim/console"
JOURNAL_SHOWN = 50
"""Newest requests on the page: enough to follow a test run, small enough for a phone."""
POLL_MS = 1500
FORM_LIMIT = 256 * 1024
"""A scenario file pasted into the form is a few kilobytes."""
NOTICES = frozenset({"rule_added", "scenario_loaded", "clock_moved", "reset_done"})
_ENV = Environment(
    loader=FileSystemLoader(Path(__file__).with_name("templates")),
    autoescape=select_autoescape(("html",)),
    trim_blocks=True,
    lstrip_blocks=True,
)


@dataclass(frozen=True, slots=True)
class Visit:
    """Who is looking: the session (a new anonymous one when the cookie is no good)."""

    request: Request
    session: Session
    texts: dict[str, str]
    fresh: bool
    """The cookie must be (re)set on the answer."""


Action = Callable[[Visit, dict[str, str]], Awaitable[Response]]


class ConsolePages:
    def __init__(
        self,
        runtime: Runtime,
        keys: SessionKeys,
        throttle: SignInThrottle,
        sessions: SessionRegistry,
    ) -> None:
        """`throttle`: shared with the admin bearer (one token, one account); `sessions`:
        the signed-in `sid`s, so signing out ends every copy of the cookie."""
        self.runtime, self.keys = runtime, keys
        self.throttle, self.sessions = throttle, sessions
        self.control = runtime.control
        self._now = runtime.config.clock.monotonic

    # --- plumbing -------------------------------------------------------------------------

    def visit(self, request: Request) -> Visit:
        session = self.keys.load(request.cookies.get(COOKIE))
        if (
            session is not None
            and session.signed_in
            and not self.sessions.is_open(session.sid, self._now())  # signed out: a copy
        ):
            session = replace(session, signed_in=False)
        fresh = session is None
        if session is None:
            session = anonymous(i18n.pick(request.headers.get("accept-language", "")))
        return Visit(request, session, i18n.texts(session.language), fresh)

    def _finish(self, visit: Visit, response: Response, session: Session | None = None) -> Response:
        if visit.fresh or session is not None:
            self.keys.cookie.set(
                response, visit.request, self.keys.dump(session or visit.session), path=PREFIX
            )
        return response

    def _render(self, visit: Visit, template: str, status: int = 200, **values: Any) -> Response:
        html = _ENV.get_template(template).render(
            t=visit.texts, lang=visit.session.language, languages=i18n.LANGUAGES,
            csrf=self.keys.csrf_token(visit.session), prefix=PREFIX, poll_ms=POLL_MS,
            signed_in=visit.session.signed_in, **values,
        )  # fmt: skip
        return self._finish(visit, HTMLResponse(html, status))

    def _back(
        self, visit: Visit, notice: str | None = None, session: Session | None = None
    ) -> Response:
        target = f"{PREFIX}/" + (f"?notice={notice}" if notice else "")
        return self._finish(visit, RedirectResponse(target, 303), session)

    def page_values(self, notice: str | None = None, **values: Any) -> dict[str, Any]:
        rules = self.control.faults.list()
        scenarios: dict[str, list[int]] = {}
        for rule in rules:
            if "scenario" in rule:
                scenarios.setdefault(rule["scenario"], [0, 0])[0] += 1
        for outcome in self.control.faults.report_outcomes():
            if "scenario" in outcome:
                scenarios.setdefault(outcome["scenario"], [0, 0])[1] += 1
        journal = self.control.requests
        return {
            "rules": rules,
            "scenarios": sorted((name, *counts) for name, counts in scenarios.items()),
            "kinds": list(KINDS),
            "operations": sorted(self.control.faults.operations),
            "tenants": sorted(TENANTS),
            "now": timestamp(self.control.clock.now()),
            "journal_on": journal.enabled,
            "requests": list(reversed(journal.list(limit=JOURNAL_SHOWN))),
            "notice": notice if notice in NOTICES else None,
            "form": {},
            **values,
        }

    # --- pages ----------------------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        visit = self.visit(request)
        if not visit.session.signed_in:
            return self._render(visit, "signin.html")
        notice = request.query_params.get("notice")
        return self._render(visit, "console.html", **self.page_values(notice))

    async def reports(self, request: Request) -> Response:
        """One tenant's payment reports with their status (`?tenant=&status=&reference=`),
        and the outcomes scenarios force for its references."""
        visit = self.visit(request)
        if not visit.session.signed_in:
            return self._render(visit, "signin.html")
        query = request.query_params
        wanted = ReportFilter(
            query.get("tenant") or min(TENANTS),
            query.get("status", ""),
            query.get("reference", "").strip(),
        )
        try:
            listing = self.control.store.read(lambda state: list_reports(state, wanted))
        except BadFilter:
            return self._render(visit, "error.html", 400, message=visit.texts["bad_filter"])
        assert isinstance(listing, ReportListing)
        forced = [o for o in self.control.faults.report_outcomes() if o["tenant"] == wanted.tenant]
        return self._render(
            visit, "reports.html", listing=listing, wanted=wanted, forced=forced,
            tenants=sorted(TENANTS), statuses=STATUSES, now=timestamp(self.control.clock.now()),
        )  # fmt: skip

    def post(
        self, action: Action, *, signed_in: bool = True
    ) -> Callable[[Request], Awaitable[Response]]:
        """A form's endpoint: bounded form, CSRF checked, session required (unless it is
        the sign-in or the language switch), then `action`."""

        async def endpoint(request: Request) -> Response:
            visit = self.visit(request)
            try:
                form = await read_form(request, FORM_LIMIT)
            except FormRefused as refused:
                return self._render(
                    visit, "error.html", refused.status, message=visit.texts["bad_form"]
                )
            if not self.keys.csrf_ok(visit.session, form.get("csrf")):
                return self._render(visit, "error.html", 403, message=visit.texts["csrf"])
            if signed_in and not visit.session.signed_in:
                return self._back(visit)
            return await action(visit, form)

        return endpoint

    async def sign_in(self, visit: Visit, form: dict[str, str]) -> Response:
        address = client_address(visit.request.scope)
        if wait := self.throttle.wait_s(address, ADMIN_ACCOUNT):
            refused = self._render(visit, "signin.html", 429, error=visit.texts["throttled"])
            refused.headers["Retry-After"] = str(wait)
            return refused
        if not self.keys.token_ok(form.get("token", "")):
            self.throttle.failed(address, ADMIN_ACCOUNT)
            return self._render(visit, "signin.html", 401, error=visit.texts["bad_token"])
        self.throttle.succeeded(address)
        fresh = Session(anonymous(visit.session.language).sid, visit.session.language, True)
        self.sessions.open(fresh.sid, self._now() + MAX_AGE)
        return self._back(visit, session=fresh)

    async def sign_out(self, visit: Visit, form: dict[str, str]) -> Response:
        self.sessions.close(visit.session.sid)
        return self._back(visit, session=anonymous(visit.session.language))

    async def language(self, visit: Visit, form: dict[str, str]) -> Response:
        chosen = form.get("lang", "")
        if chosen not in i18n.LANGUAGES:
            return self._render(visit, "error.html", 400, message=visit.texts["bad_form"])
        session = Session(visit.session.sid, chosen, visit.session.signed_in)
        return self._back(visit, session=session)

    def _refused(
        self, visit: Visit, heading: str, errors: list[FieldError], form: dict[str, str]
    ) -> Response:
        shown = invalid(errors).body["errors"]  # capped exactly as the API's 400 caps them
        values = self.page_values(errors=shown, refused=heading, form=form)
        return self._render(visit, "console.html", 400, **values)

    def _contract_errors(self, operation_id: str, body: bytes, media: str) -> list[FieldError]:
        """What the admin endpoint's contract check says of this body (its first gate,
        before the rule parser): the same validator, so the same words."""
        headers = Headers(  # the session stands for the token the API would check
            {"content-type": media, "authorization": f"Bearer {self.runtime.config.admin_token}"}
        )
        incoming = IncomingRequest("POST", "", {}, [], headers, media, body)
        try:
            self.runtime.admin_validator.validate_request(operation_id, incoming)
        except RequestRejected as rejected:
            return list(rejected.errors)
        return []

    async def add_rule(self, visit: Visit, form: dict[str, str]) -> Response:
        raw, problems = rule_from_form(form)
        errors = [FieldError("body", p.partition(": ")[2]) for p in problems] or (
            self._contract_errors("addFault", orjson.dumps(raw), "application/json")
        )
        if not errors:
            try:
                self.control.faults.add_rule(raw, where="body")
            except (FaultRuleError, ValueError) as error:
                errors = rule_field_errors(error)
        if errors:
            return self._refused(visit, "rule_refused", errors, form)
        return self._back(visit, "rule_added")

    async def remove_rule(self, visit: Visit, form: dict[str, str]) -> Response:
        self.control.faults.remove(form.get("id", ""))
        return self._back(visit)

    async def clear_rules(self, visit: Visit, form: dict[str, str]) -> Response:
        self.control.faults.clear()
        return self._back(visit)

    async def load_scenario(self, visit: Visit, form: dict[str, str]) -> Response:
        replace = form.get("replace") == "true"
        text = form.get("scenario", "")
        errors = (
            self._contract_errors("loadScenario", text.encode(), "application/yaml")
            or load_scenario_text(self.control.faults, text, replace)[1]
        )
        if errors:
            return self._refused(visit, "scenario_refused", errors, form)
        return self._back(visit, "scenario_loaded")

    async def unload_scenario(self, visit: Visit, form: dict[str, str]) -> Response:
        self.control.faults.unload_scenario(form.get("name", ""))
        return self._back(visit)

    async def advance_clock(self, visit: Visit, form: dict[str, str]) -> Response:
        parts = {
            name: scalar(form.get(name, "").strip() or "0") for name in ("days", "hours", "minutes")
        }
        try:
            if not any(parts.values()):
                raise ValueError(
                    "move the clock by a positive amount (days, hours, minutes or seconds)"
                )
            self.control.clock.advance(**parts)
        except ValueError as error:
            return self._refused(visit, "clock_refused", [FieldError("body", str(error))], form)
        return self._back(visit, "clock_moved")

    async def reset(self, visit: Visit, form: dict[str, str]) -> Response:
        self.control.reset()
        self.control.faults.clear()
        self.control.faults.clear_events()
        self.control.requests.clear()
        return self._back(visit, "reset_done")

    async def clear_requests(self, visit: Visit, form: dict[str, str]) -> Response:
        self.control.requests.clear()
        return self._back(visit)
