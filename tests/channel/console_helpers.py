"""Signing an agent into the inbox over plain HTTP, for the console tests."""

from __future__ import annotations

import re
from http.cookiejar import Cookie
from typing import Any

from tests.channel.conftest import Harness

CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def csrf_of(html: str) -> str:
    found = CSRF.search(html)
    assert found, "the page has no form with a CSRF token"
    return found.group(1)


class Agent:
    """A browser-like client of the inbox: its own cookies (several agents share the one
    test client), and each form's token sent back."""

    def __init__(self, harness: Harness) -> None:
        self.client = harness.client
        self.jar: list[Cookie] = []
        self.cookies: dict[str, str] = {}
        """Cookies to send once, as a forger would (not set by the service)."""
        self.csrf = ""

    def _send(self, method: str, path: str, **options: Any) -> Any:
        self.client.cookies.clear()
        for cookie in self.jar:
            self.client.cookies.jar.set_cookie(cookie)
        for name, value in self.cookies.items():
            self.client.cookies.set(name, value)
        self.cookies = {}
        response = self.client.request(method, path, follow_redirects=False, **options)
        self.jar = list(self.client.cookies.jar)
        if "csrf" in response.text:
            self.csrf = csrf_of(response.text)
        return response

    def get(self, path: str) -> Any:
        return self._send("GET", path)

    def post(self, path: str, fields: dict[str, str], *, csrf: str | None = None) -> Any:
        return self._send(
            "POST", path, data={"csrf": self.csrf if csrf is None else csrf, **fields}
        )

    def sign_in(self, token: str, agent: str = "ana") -> Any:
        self.jar = []
        self.get("/console/signin")
        return self.post("/console/signin", {"token": token, "agent": agent})
