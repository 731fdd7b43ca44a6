"""`/openapi.yaml`, `/openapi.json` and `/docs`: the contract the simulator implements, served.

The documents must be the contract file itself (nothing dropped or reworded) with one
change: `servers` names where this simulator was reached, so a generator or "Try it out"
calls this very instance.
"""

from __future__ import annotations

import json

import pytest
import yaml
from starlette.testclient import TestClient

from billing_toolkit.contract import OPENAPI_PATH
from billing_toolkit.simulator.contract_docs import with_server
from tests.simulator.conftest import Sim


def _contract() -> dict:
    return yaml.safe_load(OPENAPI_PATH.read_text(encoding="utf-8"))


def test_the_yaml_is_the_contract_with_this_server(sim: Sim) -> None:
    answer = sim.client.get("/openapi.yaml")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith(
        "application/yaml"
    )
    served = yaml.safe_load(answer.text)
    expected = _contract()
    assert served["servers"] == [
        {"url": "http://testserver", "description": "This billing simulator."}
    ]
    del served["servers"]
    del expected["servers"]
    assert served == expected
    # byte for byte outside the servers block: descriptions, comments and order kept
    original = OPENAPI_PATH.read_text(encoding="utf-8")
    assert answer.text.split("security:", 1)[1] == original.split("security:", 1)[1]


def test_the_json_is_the_same_document(sim: Sim) -> None:
    served = sim.client.get("/openapi.json").json()
    assert served == {**_contract(), "servers": served["servers"]}
    assert served["servers"][0]["url"] == "http://testserver"


def test_the_server_url_follows_the_host_and_scheme_the_client_used(sim: Sim) -> None:
    client = TestClient(sim.app, base_url="https://sim.qa.example:8443")
    assert client.get("/openapi.json").json()["servers"][0]["url"] == "https://sim.qa.example:8443"
    assert 'url: "https://sim.qa.example:8443"' in client.get("/openapi.yaml").text


@pytest.mark.parametrize("host", ['evil"\nx-injected: 1', "a: b", "x#comment", "h' ]}{"])
def test_a_hostile_host_cannot_add_to_the_document(host: str) -> None:
    text = with_server(OPENAPI_PATH.read_text(encoding="utf-8"), f"http://{host}")
    served = yaml.safe_load(text)
    assert served["servers"] == [
        {"url": f"http://{host}", "description": "This billing simulator."}
    ]
    assert "x-injected" not in served and set(served) == set(_contract())


def test_the_docs_page_uses_only_shipped_assets(sim: Sim) -> None:
    page = sim.client.get("/docs")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert "http://" not in page.text and "https://" not in page.text  # no CDN
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "docs-init.js"):
        assert f"/docs/assets/{asset}" in page.text
        shipped = sim.client.get(f"/docs/assets/{asset}")
        assert shipped.status_code == 200 and len(shipped.content) > 100
    assert sim.client.get("/docs/assets/../app.py").status_code == 404


def test_the_docs_are_read_only(sim: Sim) -> None:
    for path in ("/openapi.yaml", "/openapi.json", "/docs"):
        answer = sim.client.post(path)
        assert answer.status_code == 405
        assert answer.headers["content-type"].startswith("application/problem+json")
    assert json.loads(sim.client.get("/docs/assets/nope.js").text)["code"] == "not_found"
