"""What the client knows about one contract operation.

The values live in the generated `client.models.operations` table (written by
`python -m client.codegen` from `contract/openapi.yaml`); this module only defines their
shape, so method, path, declared statuses and models are never copied by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel

ParameterLocation = Literal["path", "query", "header"]


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter of an operation, by its wire name."""

    name: str
    location: ParameterLocation


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation of the contract, as the client needs it to build and judge a call.

    `statuses` are every status the contract declares; anything else is a contract
    violation. `parameters_model` validates the caller's arguments before anything is sent,
    so every request the client builds is one the contract allows.
    """

    operation_id: str
    method: str
    path: str
    success_status: int
    statuses: frozenset[int]
    response_model: type[BaseModel]
    parameters_model: type[BaseModel] | None
    parameters: tuple[Parameter, ...]
    body_model: type[BaseModel] | None
    authenticated: bool

    def header_names(self) -> frozenset[str]:
        """Wire names of the header parameters (an `Idempotency-Key`, for instance)."""
        return frozenset(p.name for p in self.parameters if p.location == "header")
