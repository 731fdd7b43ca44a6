"""The billing contract: the single source of truth every other package is checked against.

Only data lives here (the OpenAPI documents); this module just tells the others where it is,
so an installed package and a source checkout find the same files.
"""

from pathlib import Path

CONTRACT_DIR = Path(__file__).resolve().parent
OPENAPI_PATH = CONTRACT_DIR / "openapi.yaml"
ADMIN_OPENAPI_PATH = CONTRACT_DIR / "simulator-admin.yaml"

__all__ = ["ADMIN_OPENAPI_PATH", "CONTRACT_DIR", "OPENAPI_PATH"]
