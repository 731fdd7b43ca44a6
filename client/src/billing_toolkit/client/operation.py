"""A contract operation bound to the models the client generated for it.

What a request to an operation is (method, path, parameters, statuses, whether it needs the
API key) is the contract kernel's `Operation`, read from `contract/openapi.yaml`; the client
adds only what the kernel cannot know: the pydantic classes `tools/generate_client.py`
wrote for the operation's success body, its arguments and its request body. The bindings
themselves are generated (`billing_toolkit.client.models.operations`), so no fact about an
operation is written twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Generic, TypeVar

from pydantic import BaseModel

from billing_toolkit.contract.operations import Operation, load_contract

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class ClientOperation(Generic[M]):
    """One kernel operation, by its operationId, and its generated models.

    Generic in the success model, so a typed method that calls through a binding returns
    that model without a cast. `parameters_model` validates the caller's arguments (by wire
    name) before anything is sent, and `body_model` the request body, so every request the
    client builds is one the contract allows.
    """

    operation_id: str
    response_model: type[M]
    parameters_model: type[BaseModel] | None = None
    body_model: type[BaseModel] | None = None

    @cached_property
    def contract(self) -> Operation:
        """The kernel's operation. Looked up on first use, not when the bindings are imported:
        after a contract change the stale bindings still import, so the code generator (which
        imports this package) can run and rewrite them."""
        return load_contract().operations[self.operation_id]
