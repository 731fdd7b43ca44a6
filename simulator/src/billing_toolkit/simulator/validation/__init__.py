"""Contract validation: two engines that check requests and responses against the contract.

`build_validator` picks the engine: `compiled` (jsonschema-rs, the default for serving)
or `openapi-core` (the reference the tests hold the simulator to). The contract itself is
the shared kernel's operation model (`billing_toolkit.contract.operations`); it is
re-exported here so code that took `Contract`, `Operation` or `load_contract` from this
package keeps working with the one model every package uses.
"""

from __future__ import annotations

from billing_toolkit.contract.document import ContractError
from billing_toolkit.contract.operations import Contract, Operation, load_contract
from billing_toolkit.simulator.validation.compiled import CompiledValidator
from billing_toolkit.simulator.validation.messages import (
    ContractValidator,
    ContractViolation,
    FieldError,
    IncomingRequest,
    RequestRejected,
    ValidatedRequest,
)

ENGINES = ("compiled", "openapi-core")


def build_validator(contract: Contract, engine: str) -> ContractValidator:
    if engine == "compiled":
        return CompiledValidator(contract)
    if engine == "openapi-core":
        # Imported only when chosen: openapi-core takes half a second to import, which every
        # simulator started on the default engine (a cold `billing-assistant ask`) paid.
        from billing_toolkit.simulator.validation.reference import OpenApiCoreValidator

        return OpenApiCoreValidator(contract)
    raise ValueError(f"unknown validation engine {engine!r} (expected one of {sorted(ENGINES)})")


__all__ = [
    "ENGINES",
    "CompiledValidator",
    "Contract",
    "ContractError",
    "ContractValidator",
    "ContractViolation",
    "FieldError",
    "IncomingRequest",
    "Operation",
    "RequestRejected",
    "ValidatedRequest",
    "build_validator",
    "load_contract",
]
