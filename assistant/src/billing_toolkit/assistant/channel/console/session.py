"""The inbox's session: a signed cookie naming the tenant and the agent, and its CSRF token.

Signing in exchanges the tenant's agent token for a cookie signed with the console's key
(the shared `billing_toolkit.webconsole.session` machinery, expiring after `MAX_AGE`). The
cookie never holds the agent token: it holds a fingerprint of it, so rotating a tenant's agent
token signs out all its agents. Every visitor, signed in or not, has a random `sid`; the CSRF
token of every form is an HMAC of it, checked on each POST (the sign-in form included, so
nobody can sign a victim into the attacker's tenant). `sid` is renewed at sign-in.

Bias: signed out. A cookie that is unsigned, expired, from another key, or whose tenant or
token changed is no session at all.
"""

from __future__ import annotations

import hmac
import os
import secrets
from dataclasses import dataclass, replace

from billing_toolkit.assistant.channel.config import ChannelConfig, TenantChannel
from billing_toolkit.webconsole.session import SignedCookie, new_sid

COOKIE = "console_session"
MAX_AGE = 12 * 3600
"""An agent's shift: after it, sign in again."""
SECRET_ENV = "ASSISTANT_CONSOLE_SECRET"


@dataclass(frozen=True, slots=True)
class Session:
    sid: str
    language: str
    tenant: str | None = None
    agent: str | None = None
    fingerprint: str | None = None


class SessionKeys:
    """Signs and reads session cookies and CSRF tokens with one key."""

    def __init__(self, key: bytes) -> None:
        self.cookie = SignedCookie(
            key, salt="billing-assistant-console", cookie=COOKIE, max_age=MAX_AGE
        )

    @classmethod
    def from_environment(cls) -> SessionKeys:
        """`$ASSISTANT_CONSOLE_SECRET`, or a random key of this process (sessions then end
        when the service restarts, which is the safe side)."""
        configured = os.environ.get(SECRET_ENV, "")
        return cls(configured.encode() if configured else secrets.token_bytes(32))

    def fingerprint(self, tenant: TenantChannel) -> str:
        return self.cookie.mac(b"agent-token:" + tenant.agent_token.value.encode())[:32]

    def csrf_token(self, session: Session) -> str:
        return self.cookie.csrf_token(session.sid)

    def csrf_ok(self, session: Session, token: str | None) -> bool:
        return self.cookie.csrf_ok(session.sid, token)

    def dump(self, session: Session) -> str:
        return self.cookie.dump(
            [session.sid, session.language, session.tenant, session.agent, session.fingerprint]
        )

    def load(self, cookie: str | None) -> Session | None:
        fields = self.cookie.load(cookie, 5)
        if fields is None:
            return None
        sid, language, tenant, agent, fingerprint = fields
        return Session(str(sid), str(language), _text(tenant), _text(agent), _text(fingerprint))

    def signed_in(self, session: Session | None, config: ChannelConfig) -> TenantChannel | None:
        """The tenant of a signed-in session whose agent token is still the one it signed
        in with; None otherwise."""
        if session is None or session.tenant is None or session.fingerprint is None:
            return None
        tenant = config.by_name(session.tenant)
        if tenant is None or not hmac.compare_digest(self.fingerprint(tenant), session.fingerprint):
            return None
        return tenant


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def anonymous(language: str) -> Session:
    return Session(sid=new_sid(), language=language)


def signed_in_as(session: Session, tenant: TenantChannel, agent: str, keys: SessionKeys) -> Session:
    """A fresh session (new `sid`: no fixation) for `agent` of `tenant`."""
    return replace(
        anonymous(session.language),
        tenant=tenant.tenant,
        agent=agent,
        fingerprint=keys.fingerprint(tenant),
    )
