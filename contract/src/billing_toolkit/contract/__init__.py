"""The contract kernel: `contract/openapi.yaml` read once into the facts every package shares.

The simulator serves these operations, the client calls them, the conformance kit checks them
and the assistant reads the identifiers they define; none of them reads the document again by
hand. Data (the OpenAPI documents) lives beside this module, so an installed package and a
source checkout find the same files.
"""

from billing_toolkit.contract.document import ContractError
from billing_toolkit.contract.paths import ADMIN_OPENAPI_PATH, CONTRACT_DIR, OPENAPI_PATH

__all__ = ["ADMIN_OPENAPI_PATH", "CONTRACT_DIR", "OPENAPI_PATH", "ContractError"]
