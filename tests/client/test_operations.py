"""One typed method per contract operation, on both twins, and the table matches the contract."""

from __future__ import annotations

import inspect
import re

import pytest

from client import AsyncBillingClient, BillingClient
from client.models.operations import OPERATIONS
from contract.document import load, operations

LIFECYCLE = {"close", "aclose"}


def snake(operation_id: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", operation_id).lower()


def public_methods(cls: type) -> set[str]:
    return {
        name
        for name, member in inspect.getmembers(cls, inspect.isfunction)
        if not name.startswith("_") and name not in LIFECYCLE
    }


CONTRACT = load()
CONTRACT_IDS = [op["operationId"] for _, _, op in operations(CONTRACT)]


@pytest.mark.parametrize("cls", [BillingClient, AsyncBillingClient])
def test_methods_are_one_to_one_with_operation_ids(cls: type) -> None:
    assert public_methods(cls) == {snake(op_id) for op_id in CONTRACT_IDS}


@pytest.mark.parametrize("cls", [BillingClient, AsyncBillingClient])
def test_each_method_returns_its_operations_model(cls: type) -> None:
    for op_id in CONTRACT_IDS:
        method = getattr(cls, snake(op_id))
        returned = inspect.signature(method).return_annotation
        assert returned == OPERATIONS[op_id].response_model.__name__, op_id


def test_async_methods_are_coroutines_and_sync_ones_are_not() -> None:
    for op_id in CONTRACT_IDS:
        assert inspect.iscoroutinefunction(getattr(AsyncBillingClient, snake(op_id)))
        assert not inspect.iscoroutinefunction(getattr(BillingClient, snake(op_id)))


def test_table_has_every_operation_with_its_method_path_and_statuses() -> None:
    assert list(OPERATIONS) == CONTRACT_IDS
    for path, method, op in operations(CONTRACT):
        row = OPERATIONS[op["operationId"]]
        assert (row.method, row.path) == (method.upper(), path)
        assert row.statuses == frozenset(int(s) for s in op["responses"])
        assert row.authenticated == (op.get("security") != [])
