"""The inbox's pages: sign in and out, the waiting list, a conversation and its actions.

Every page is rendered on the server; the forms work without JavaScript (POST, then a
redirect to the page, or the page again with the refusal on it), and `static/console.js`
only refreshes the parts marked `data-live` while the agent looks. The handoff rules are
`handoff_actions`' — the same as the API's, refusals included: a 409 is the page again with
the reason, in the agent's language, and the same status.

Another operator's conversation, a phone that was never seen and a path that is not a phone
are the same 404 page. A visitor without a session is sent to the sign-in page before
anything is looked up.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from billing_toolkit.assistant.channel import handoff_actions as actions
from billing_toolkit.assistant.channel.config import TenantChannel
from billing_toolkit.assistant.channel.console import i18n
from billing_toolkit.assistant.channel.console.session import (
    COOKIE,
    MAX_AGE,
    Session,
    SessionKeys,
    anonymous,
    signed_in_as,
)
from billing_toolkit.assistant.channel.handoff_actions import ConversationView, Refused
from billing_toolkit.assistant.channel.json_body import BodyProblem, read_body
from billing_toolkit.assistant.channel.service import ChannelService
from billing_toolkit.assistant.channel.sign_in_guard import SignInGuard, retry_after
from billing_toolkit.assistant.store import ConversationState
from billing_toolkit.webconsole.throttle import client_address

PREFIX = "/console"
MAX_FORM_BYTES = 64 * 1024
"""A message of `MAX_TEXT` characters percent-encoded (up to 9 bytes each), and the rest."""
MAX_FIELDS = 8
POLL_MS = 2000
"""How often the open page asks for news: an escalation appears within about this long."""

_TEMPLATES = Environment(
    loader=FileSystemLoader(Path(__file__).with_name("templates")),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


class FormRefused(Exception):
    """The POST is not a form of this page; `key` names the message, `status` the answer."""

    def __init__(self, status: int, key: str) -> None:
        super().__init__(key)
        self.status = status
        self.key = key


@dataclass(frozen=True, slots=True)
class Visit:
    """Who is asking: their session (a new one for a first visit) and its tenant, if any."""

    request: Request
    session: Session
    tenant: TenantChannel | None
    keys: SessionKeys
    new: bool

    @property
    def texts(self) -> dict[str, str]:
        return i18n.texts(self.session.language)


def _service(request: Request) -> ChannelService:
    service: ChannelService = request.app.state.channel
    return service


async def _visit(request: Request, keys: SessionKeys) -> Visit:
    """Who is asking. A cookie is a session only while the store holds its `sid`: signing
    out removes it, so a copy of the cookie stops working too."""
    session = keys.load(request.cookies.get(COOKIE))
    tenant = keys.signed_in(session, _service(request).config)
    if tenant is not None and session is not None:
        tenant = tenant if await SignInGuard(_service(request)).session_open(session.sid) else None
    if session is None:
        return Visit(
            request,
            anonymous(i18n.pick(request.headers.get("accept-language", ""))),
            None,
            keys,
            True,
        )
    return Visit(request, session, tenant, keys, False)


def _keep(response: Response, visit: Visit, session: Session | None = None) -> Response:
    """The response, setting the session cookie when it is new or changed."""
    if visit.new or session is not None:
        visit.keys.cookie.set(
            response, visit.request, visit.keys.dump(session or visit.session), path=PREFIX
        )
    return response


def _page(visit: Visit, template: str, status: int = 200, **context: Any) -> Response:
    html = _TEMPLATES.get_template(template).render(
        t=visit.texts,
        lang=visit.session.language,
        prefix=PREFIX,
        poll_ms=POLL_MS,
        csrf=visit.keys.csrf_token(visit.session),
        session=visit.session,
        tenant=visit.tenant,
        here=visit.request.url.path,
        **context,
    )
    return _keep(HTMLResponse(html, status_code=status), visit)


def _see_other(path: str) -> Response:
    return RedirectResponse(path, status_code=303)


async def _form(request: Request) -> dict[str, str]:
    """The fields of a urlencoded form body, bounded before it is read; the first of a
    repeated name counts."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise FormRefused(415, "bad_form")
    try:
        body = (await read_body(request, MAX_FORM_BYTES)).decode("ascii")
        pairs = parse_qsl(
            body,
            keep_blank_values=True,
            encoding="utf-8",
            errors="strict",
            max_num_fields=MAX_FIELDS,
        )
    except BodyProblem as refused:
        raise FormRefused(refused.status, "bad_form") from None
    except (UnicodeDecodeError, ValueError):
        raise FormRefused(400, "bad_form") from None
    fields: dict[str, str] = {}
    for name, value in pairs:
        fields.setdefault(name, value)
    return fields


def _waited(since: datetime, now: datetime, t: dict[str, str]) -> str:
    minutes = max(0, int((now - since).total_seconds() // 60))
    if minutes < 60:
        return t["minutes"].format(n=minutes)
    return t["hours"].format(h=minutes // 60, m=minutes % 60)


def _path_of(phone: str) -> str:
    return f"{PREFIX}/conversations/{phone.lstrip('+')}"


Action = Callable[[Visit, dict[str, str]], Awaitable[Response]]


class ConsolePages:
    """The endpoints, bound to the key that signs their sessions."""

    def __init__(self, keys: SessionKeys) -> None:
        self.keys = keys

    # -- sign in and out ---------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        visit = await _visit(request, self.keys)
        if visit.tenant is None:
            return _keep(_see_other(f"{PREFIX}/signin"), visit)
        service = _service(request)
        waiting = await actions.in_state(
            service, visit.tenant.tenant, ConversationState.WAITING_FOR_HUMAN
        )
        active = await actions.in_state(
            service, visit.tenant.tenant, ConversationState.HUMAN_ACTIVE
        )
        now = service.store.now()
        rows = [
            {
                "item": item,
                "path": _path_of(item.conversation.phone),
                "waited": _waited(
                    item.latest_escalation.created_at
                    if item.latest_escalation
                    else item.conversation.updated_at or now,
                    now,
                    visit.texts,
                ),
            }
            for item in waiting
        ]
        mine = [{"item": item, "path": _path_of(item.conversation.phone)} for item in active]
        return _page(visit, "inbox.html", waiting=rows, active=mine)

    async def signin_page(self, request: Request) -> Response:
        visit = await _visit(request, self.keys)
        if visit.tenant is not None:
            return _see_other(f"{PREFIX}/")
        return _page(visit, "signin.html")

    async def signin(self, visit: Visit, form: dict[str, str]) -> Response:
        """Throttled per address and per agent named (`sign_in_guard`): while the address
        must wait, the token is not even compared."""
        service = _service(visit.request)
        guard, address = SignInGuard(service), client_address(visit.request.scope)
        agent = form.get("agent", "").strip()
        account = agent.lower()[:64] or None
        if wait := await guard.wait_s(address, account):
            refused = _page(visit, "signin.html", 429, error=visit.texts["throttled"], agent=agent)
            refused.headers.update(retry_after(wait))
            return refused
        tenant = actions.tenant_by_agent_token(service.config, form.get("token", ""))
        if tenant is None:
            await guard.failed(address, account)
            return _page(visit, "signin.html", 401, error=visit.texts["bad_token"], agent=agent)
        await guard.succeeded(address)
        if not actions.AGENT_ID.match(agent):
            return _page(visit, "signin.html", 400, error=visit.texts["bad_agent"], agent=agent)
        session = signed_in_as(visit.session, tenant, agent, self.keys)
        await guard.open_session(session.sid, MAX_AGE)
        return _keep(_see_other(f"{PREFIX}/"), visit, session)

    async def signout(self, visit: Visit, form: dict[str, str]) -> Response:
        await SignInGuard(_service(visit.request)).close_session(visit.session.sid)
        response = _see_other(f"{PREFIX}/signin")
        self.keys.cookie.clear(response, path=PREFIX)
        return response

    async def language(self, visit: Visit, form: dict[str, str]) -> Response:
        chosen = form.get("lang", "")
        target = form.get("next", "")
        if not target.startswith(PREFIX + "/") or "//" in target or "\\" in target:
            target = f"{PREFIX}/"
        if chosen not in i18n.LANGUAGES:
            return _page(visit, "error.html", 400, message=visit.texts["bad_form"])
        session = Session(
            visit.session.sid,
            chosen,
            visit.session.tenant,
            visit.session.agent,
            visit.session.fingerprint,
        )
        return _keep(_see_other(target), visit, session)

    # -- a conversation ------------------------------------------------------------------

    async def _conversation(
        self, visit: Visit, phone: str, status: int = 200, notice: str | None = None
    ) -> Response:
        assert visit.tenant is not None
        seen = await actions.view(_service(visit.request), visit.tenant.tenant, phone)
        return _page(
            visit,
            "conversation.html",
            status,
            view=seen,
            notice=notice,
            path=_path_of(phone),
            mine=_is_mine(seen, visit),
        )

    def _not_found(self, visit: Visit) -> Response:
        return _page(visit, "error.html", 404, message=visit.texts["not_found"])

    async def conversation(self, request: Request) -> Response:
        visit = await _visit(request, self.keys)
        if visit.tenant is None:
            return _keep(_see_other(f"{PREFIX}/signin"), visit)
        try:
            phone = actions.parse_phone(str(request.path_params["phone"]))
            return await self._conversation(visit, phone)
        except Refused:
            return self._not_found(visit)

    def on_conversation(
        self, act: Callable[[Visit, str, dict[str, str]], Awaitable[object]]
    ) -> Action:
        """A conversation's form action: done, it redirects to the conversation; refused by
        the handoff rules, it shows the conversation again with the reason."""

        async def run(visit: Visit, form: dict[str, str]) -> Response:
            if visit.tenant is None:
                return _see_other(f"{PREFIX}/signin")
            try:
                phone = actions.parse_phone(str(visit.request.path_params["phone"]))
                await actions.view(_service(visit.request), visit.tenant.tenant, phone)
            except Refused:
                return self._not_found(visit)
            try:
                await act(visit, phone, form)
            except Refused as refused:
                if refused.status == 404:
                    return self._not_found(visit)
                return await self._conversation(visit, phone, refused.status, refused.code)
            return _see_other(_path_of(phone))

        return run

    def form(self, action: Action) -> Callable[[Request], Awaitable[Response]]:
        """A POST endpoint: its form read (bounded) and its CSRF token checked first."""

        async def endpoint(request: Request) -> Response:
            visit = await _visit(request, self.keys)
            try:
                fields = await _form(request)
            except FormRefused as refused:
                return _page(visit, "error.html", refused.status, message=visit.texts[refused.key])
            if visit.new or not self.keys.csrf_ok(visit.session, fields.get("csrf")):
                return _page(visit, "error.html", 403, message=visit.texts["csrf"])
            return await action(visit, fields)

        return endpoint


def _is_mine(seen: ConversationView, visit: Visit) -> bool:
    conversation = seen.conversation
    return (
        conversation.state is ConversationState.HUMAN_ACTIVE
        and conversation.agent_id == visit.session.agent
    )


async def take_over(visit: Visit, phone: str, form: dict[str, str]) -> object:
    assert visit.tenant is not None and visit.session.agent is not None
    return await actions.take_over(
        _service(visit.request), visit.tenant.tenant, phone, visit.session.agent
    )


async def release(visit: Visit, phone: str, form: dict[str, str]) -> object:
    assert visit.tenant is not None
    return await actions.release(_service(visit.request), visit.tenant.tenant, phone)


async def write(visit: Visit, phone: str, form: dict[str, str]) -> object:
    assert visit.tenant is not None
    text = actions.checked_text(form.get("text"))
    return await actions.write(_service(visit.request), visit.tenant.tenant, phone, text)
