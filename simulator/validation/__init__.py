"""Contract validation: the contract read once, and two engines that check against it.

`build_validator` picks the engine: `compiled` (jsonschema-rs, the default for serving)
or `openapi-core` (the reference the tests hold the simulator to).
"""

from __future__ import annotations

from simulator.validation.compiled import CompiledValidator
from simulator.validation.contract import Contract, ContractError, Operation, load_contract
from simulator.validation.messages import (
    ContractValidator,
    ContractViolation,
    FieldError,
    IncomingRequest,
    RequestRejected,
    ValidatedRequest,
)
from simulator.validation.reference import OpenApiCoreValidator

ENGINES = {"compiled": CompiledValidator, "openapi-core": OpenApiCoreValidator}


def build_validator(contract: Contract, engine: str) -> ContractValidator:
    if engine not in ENGINES:
        raise ValueError(
            f"unknown validation engine {engine!r} (expected one of {sorted(ENGINES)})"
        )
    return ENGINES[engine](contract)


__all__ = [
    "ENGINES",
    "CompiledValidator",
    "Contract",
    "ContractError",
    "ContractValidator",
    "ContractViolation",
    "FieldError",
    "IncomingRequest",
    "OpenApiCoreValidator",
    "Operation",
    "RequestRejected",
    "ValidatedRequest",
    "build_validator",
    "load_contract",
]
