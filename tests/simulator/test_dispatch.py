"""The direct dispatch table picks the operation Starlette's router would have picked."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from starlette.routing import Match, Route

from billing_toolkit.contract import ADMIN_OPENAPI_PATH, OPENAPI_PATH, matching
from billing_toolkit.contract.matching import OperationMatcher
from billing_toolkit.contract.operations import Operation, load_contract
from billing_toolkit.contract.templates import PathTemplate
from tests.simulator.conftest import Sim


def _starlette_choice(operations: list[Operation], method: str, path: str) -> str | None:
    """What a Starlette router with one route per operation, in order, would serve."""
    scope = {"type": "http", "method": method, "path": path, "root_path": ""}
    for operation in operations:
        route = Route(operation.path.template, lambda request: None, methods=[operation.method])
        if route.matches(scope)[0] is Match.FULL:
            return operation.operation_id
    return None


def _concrete(template: str) -> str:
    return template.replace("{", "x-").replace("}", "")


@pytest.mark.parametrize("document", [OPENAPI_PATH, ADMIN_OPENAPI_PATH], ids=["billing", "admin"])
def test_every_contract_request_goes_where_starlette_would_send_it(document: Path) -> None:
    operations = list(load_contract(document).operations.values())
    matcher = OperationMatcher(operations)
    paths = {_concrete(op.path.template) for op in operations} | {"/v1/customers", "/nowhere"}
    for path in sorted(paths):
        for method in ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"):
            found = matcher.match(method, path)
            chosen = found[0].operation_id if found else None
            assert chosen == _starlette_choice(operations, method, path), (method, path)


def test_a_remembered_match_is_the_same_answer_with_parameters_of_its_own() -> None:
    """Asked again, the matcher answers from memory: the same operation and parameters,
    in a dict the first caller's changes did not reach, and a miss stays a miss."""
    matcher = OperationMatcher(load_contract(OPENAPI_PATH).operations.values())
    first = matcher.match("GET", "/v1/customers/1000004821/balance")
    assert first is not None
    first[1]["accountNumber"] = "changed by a caller"
    again = matcher.match("GET", "/v1/customers/1000004821/balance")
    assert again is not None and again[0] is first[0]
    assert again[1] == {"accountNumber": "1000004821"}
    assert matcher.match("GET", "/nowhere") is None and matcher.match("GET", "/nowhere") is None


def test_the_matchers_memory_is_bounded_and_stays_right_past_its_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A client sending ever new paths cannot grow it, and what is asked after it has been
    forgotten is matched afresh, rightly."""
    monkeypatch.setattr(matching, "REMEMBERED", 8)
    matcher = OperationMatcher(load_contract(OPENAPI_PATH).operations.values())
    for number in range(30):
        found = matcher.match("GET", f"/v1/customers/{1000000000 + number}/balance")
        assert found is not None and found[1] == {"accountNumber": str(1000000000 + number)}
        assert len(matcher._seen) <= 8
    assert matcher.match("GET", "/v1/customers/1000000000/balance") is not None


def test_contract_order_decides_between_a_literal_and_a_template() -> None:
    template = load_contract(OPENAPI_PATH).operations["getInvoice"]  # /v1/invoices/{invoiceNumber}
    literal = dataclasses.replace(
        template, operation_id="special", path=PathTemplate("/v1/invoices/special")
    )
    first_template = OperationMatcher([template, literal])
    first_literal = OperationMatcher([literal, template])
    for matcher, winner in ((first_template, "getInvoice"), (first_literal, "special")):
        found = matcher.match("GET", "/v1/invoices/special")
        assert found is not None and found[0].operation_id == winner
    found = first_literal.match("GET", "/v1/invoices/INV-1")
    assert found is not None and found[1] == {"invoiceNumber": "INV-1"}


def test_head_answers_like_get_without_a_body(fast_sim: Sim) -> None:
    account = fast_sim.sample("individual")["account_number"]
    get = fast_sim.get(f"/v1/customers/{account}/balance")
    head = fast_sim.client.head(f"/v1/customers/{account}/balance", headers=fast_sim.auth())
    assert head.status_code == get.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == get.headers["content-length"]
    assert head.headers["content-type"] == "application/json" and head.headers["x-request-id"]
