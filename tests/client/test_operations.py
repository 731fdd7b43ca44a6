"""One typed method per contract operation, on both twins, bound to the kernel's operations."""

from __future__ import annotations

import inspect
import re

import pytest

from billing_toolkit.client import AsyncBillingClient, BillingClient
from billing_toolkit.client.models.operations import OPERATIONS
from billing_toolkit.contract.document import load, operations
from billing_toolkit.contract.operations import load_contract
from tools.generate_client import python_name

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


def test_the_twins_have_the_same_signatures() -> None:
    for op_id in CONTRACT_IDS:
        name = snake(op_id)
        blocking, awaitable = getattr(BillingClient, name), getattr(AsyncBillingClient, name)
        assert inspect.signature(blocking) == inspect.signature(awaitable), name
        assert blocking.__doc__ == awaitable.__doc__, name


def test_each_method_takes_its_operations_parameters_and_body_fields() -> None:
    for op_id, binding in OPERATIONS.items():
        contract = binding.contract
        fields = (contract.body_schema or {}).get("properties", {})
        expected = {python_name(name) for name in [*(p.name for p in contract.parameters), *fields]}
        taken = set(inspect.signature(getattr(BillingClient, snake(op_id))).parameters)
        assert taken - {"self"} == expected, op_id


def test_the_table_binds_the_kernels_operations_in_contract_order() -> None:
    kernel = load_contract().operations
    assert list(OPERATIONS) == CONTRACT_IDS == list(kernel)
    for op_id, binding in OPERATIONS.items():
        assert binding.contract is kernel[op_id]
        assert (binding.parameters_model is None) == (not binding.contract.parameters), op_id
        assert (binding.body_model is None) == (binding.contract.body_schema is None), op_id
