"""What every console answer must carry, checked on the answers a console's router gives
itself (a redirect of the bare prefix, an unknown path, a wrong method), not just pages."""

from __future__ import annotations

from typing import Any

from billing_toolkit.webconsole.headers import HEADERS


def assert_private_everywhere(client: Any, prefix: str, form_path: str) -> None:
    """`client` (a Starlette TestClient) gets 307, 404 and 405 from the console at `prefix`,
    each with every private header; `form_path` is one of its POST-only forms."""
    for method, path, status in (
        ("GET", prefix, 307),
        ("GET", f"{prefix}/no-such-page", 404),
        ("PUT", f"{prefix}{form_path}", 405),
    ):
        answer = client.request(method, path, follow_redirects=False)
        assert answer.status_code == status, (method, path)
        assert all(answer.headers[name.decode()] == value.decode() for name, value in HEADERS)
