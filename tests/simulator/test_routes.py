"""Routes come from the contract: a missing or extra handler stops the simulator at start."""

from __future__ import annotations

import pytest

from billing_toolkit.contract import ADMIN_OPENAPI_PATH, OPENAPI_PATH
from billing_toolkit.contract.operations import load_contract
from billing_toolkit.simulator import create_app
from billing_toolkit.simulator.admin.handlers import ADMIN_HANDLERS
from billing_toolkit.simulator.handlers import BILLING_HANDLERS
from billing_toolkit.simulator.routing import ContractMismatch, check_handlers
from tests.simulator.conftest import small_config


def test_every_operation_has_exactly_one_handler() -> None:
    check_handlers(load_contract(OPENAPI_PATH), BILLING_HANDLERS)
    check_handlers(load_contract(ADMIN_OPENAPI_PATH), ADMIN_HANDLERS)


def test_a_missing_handler_fails_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(BILLING_HANDLERS, "getBalance")
    with pytest.raises(ContractMismatch, match="operations without a handler: getBalance"):
        create_app(small_config())


def test_a_handler_without_an_operation_fails_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BILLING_HANDLERS, "deleteInvoice", BILLING_HANDLERS["getInvoice"])
    with pytest.raises(ContractMismatch, match="handlers without an operation: deleteInvoice"):
        create_app(small_config())


def test_both_contracts_are_valid_openapi() -> None:
    from openapi_spec_validator import validate
    from openapi_spec_validator.readers import read_from_filename

    for path in (OPENAPI_PATH, ADMIN_OPENAPI_PATH):
        validate(read_from_filename(str(path))[0])
