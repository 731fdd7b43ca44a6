"""The contract, served: `/openapi.yaml`, `/openapi.json` and an interactive `/docs` page.

The YAML is the contract file byte for byte except its `servers` block, which names the URL
this request reached the simulator at (scheme and host of the request), so "Try it out" in
`/docs` — and any generator pointed at `/openapi.yaml` — talks to this very simulator. The
docs page is Swagger UI, vendored in `docs_assets/` (see its NOTICE): no CDN, it works
offline. The host comes from the client; it is written as a JSON string (valid YAML), never
pasted raw, so no Host header can add a key to the document.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from billing_toolkit.contract.operations import load_contract

ASSETS = Path(__file__).parent / "docs_assets"
DOCS_PATHS = frozenset({"/openapi.yaml", "/openapi.json", "/docs"})
"""Paths the request journal leaves out (with `/docs/assets/...`): reading the docs is not
traffic anyone asserts on."""
ASSETS_PREFIX = "/docs/assets"
_SERVERS_BLOCK = re.compile(r"^servers:\n(?:[ \t-].*\n|\n)*", re.MULTILINE)
_NO_STORE = {"Cache-Control": "no-cache"}

_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Billing API — simulator docs</title>
<link rel="stylesheet" href="{assets}/swagger-ui.css">
</head>
<body>
<main id="swagger-ui" data-spec="{spec}"></main>
<script src="{assets}/swagger-ui-bundle.js"></script>
<script src="{assets}/docs-init.js"></script>
</body>
</html>
"""


def server_url(request: Request) -> str:
    """Where the client reached us: scheme, host (and port) and any mount prefix."""
    return f"{request.url.scheme}://{request.url.netloc}{request.scope.get('root_path', '')}"


def with_server(text: str, url: str) -> str:
    """The contract text with its top-level `servers` replaced by this one server."""
    block = f"servers:\n  - url: {json.dumps(url)}\n    description: This billing simulator.\n"
    replaced, count = _SERVERS_BLOCK.subn(lambda _: block, text, count=1)
    return replaced if count else text.replace("\npaths:", f"\n{block}paths:", 1)


class ContractDocs:
    """The three documents of one contract file (read once, at start-up)."""

    def __init__(self, contract_path: Path) -> None:
        self.text = contract_path.read_text(encoding="utf-8")
        # The process's one parse of the contract (the validators and the handlers read it too).
        self.document: dict[str, Any] = load_contract(contract_path).document

    async def openapi_yaml(self, request: Request) -> Response:
        body = with_server(self.text, server_url(request))
        return Response(body, media_type="application/yaml", headers=_NO_STORE)

    async def openapi_json(self, request: Request) -> Response:
        document = {
            **self.document,
            "servers": [{"url": server_url(request), "description": "This billing simulator."}],
        }
        return Response(orjson.dumps(document), media_type="application/json", headers=_NO_STORE)

    async def docs_page(self, request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return HTMLResponse(
            _PAGE.format(assets=root + ASSETS_PREFIX, spec=root + "/openapi.json"),
            headers={
                **_NO_STORE,
                "Content-Security-Policy": "default-src 'self'; img-src 'self' data:;"
                " style-src 'self' 'unsafe-inline'; script-src 'self'",
            },
        )

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/openapi.yaml", self.openapi_yaml, methods=["GET"]),
            Route("/openapi.json", self.openapi_json, methods=["GET"]),
            Route("/docs", self.docs_page, methods=["GET"]),
            Mount(ASSETS_PREFIX, app=StaticFiles(directory=ASSETS)),
        ]
